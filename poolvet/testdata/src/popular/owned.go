package popular

import (
	"errors"
	"sync"
)

// Reference-count leaks that start at a parameter, or at a field of one,
// rather than at a Get: the function owns the packet buffer (it gives it
// back on some paths, or its callers hand it over), so a path that
// returns without giving it back or handing it on loses it.

type packetSink interface{ handlePacket(*receivedPacket) }

type handlerMap struct {
	handlers map[byte]packetSink
	server   packetSink
	read     func([]byte) (int, error)
}

// listen hands each buffer it takes to handlePacket and never gives it
// back itself: handlePacket owns it (quic-go v0.17.3's
// packetHandlerMap.listen).
func (h *handlerMap) listen() {
	for {
		buffer := getPacketBuffer()
		data := buffer.Data[:1452]
		n, err := h.read(data)
		if err != nil {
			return
		}
		h.handlePacket(buffer, data[:n])
	}
}

// handlePacket drops the buffer when the packet does not parse:
// quic-go v0.17.3 packetHandlerMap.handlePacket, fixed in v0.18.0 by
// buffer.MaybeRelease() on that path.
func (h *handlerMap) handlePacket(buffer *packetBuffer, data []byte) {
	if len(data) < 2 {
		return // want `buffer is not given back on the path to this return: its callers hand it to handlePacket`
	}
	p := &receivedPacket{data: data, buffer: buffer}
	if s, ok := h.handlers[data[1]]; ok {
		s.handlePacket(p)
		return
	}
	if h.server == nil {
		return
	}
	h.server.handlePacket(p)
}

type fixedMap struct {
	handlers map[byte]packetSink
	read     func([]byte) (int, error)
}

func (h *fixedMap) listen() {
	for {
		buffer := getPacketBuffer()
		n, err := h.read(buffer.Data[:1452])
		if err != nil {
			return
		}
		h.handlePacket(buffer, buffer.Data[:n])
	}
}

// The fix: the buffer goes back where the packet is dropped.
func (h *fixedMap) handlePacket(buffer *packetBuffer, data []byte) {
	if len(data) < 2 {
		buffer.MaybeRelease()
		return
	}
	p := &receivedPacket{data: data, buffer: buffer}
	if s, ok := h.handlers[data[1]]; ok {
		s.handlePacket(p)
		return
	}
	buffer.Release()
}

type initialServer struct {
	sess      packetSink
	accept    func() bool
	queueLen  int
	sendRetry func(*receivedPacket) error
	refuse    func(n int) error
	newConnID func() ([]byte, error)
}

func (s *initialServer) handleInitial(p *receivedPacket) bool {
	if err := s.handleInitialImpl(p); err != nil {
		return false
	}
	return true
}

// handleInitialImpl gives p.buffer back on some paths, hands p on on
// others, and on the queue-full path starts a goroutine that only reads
// the packet's length and never gives the buffer back: quic-go v0.19.3
// baseServer.handleInitialImpl, fixed in v0.20.0 by a deferred
// p.buffer.Release() in that goroutine.
func (s *initialServer) handleInitialImpl(p *receivedPacket) error {
	if len(p.data) < 8 {
		p.buffer.Release()
		return errors.New("too short connection ID")
	}
	if !s.accept() {
		go func() {
			defer p.buffer.Release()
			_ = s.sendRetry(p)
		}()
		return nil
	}
	if s.queueLen >= 16 {
		go func() {
			_ = s.refuse(len(p.data))
		}()
		return nil // want `p.buffer is not given back on the path to this return: handleInitialImpl gives it back on other paths`
	}
	sess := s.sess
	if sess == nil {
		p.buffer.Release()
		return nil
	}
	sess.handlePacket(p)
	return nil
}

type fixedServer struct {
	sess     packetSink
	queueLen int
	refuse   func(n int) error
}

func (s *fixedServer) handleInitial(p *receivedPacket) bool {
	_ = s.handleInitialImpl(p)
	return true
}

// The fix: the goroutine gives it back; and a method of the packet that
// gives its buffer back counts too.
func (s *fixedServer) handleInitialImpl(p *receivedPacket) error {
	if len(p.data) < 8 {
		p.buffer.Release()
		return errors.New("too short connection ID")
	}
	if s.queueLen >= 16 {
		go func() {
			defer p.buffer.Release()
			_ = s.refuse(len(p.data))
		}()
		return nil
	}
	if s.sess == nil {
		p.drop()
		return nil
	}
	s.sess.handlePacket(p)
	return nil
}

func (p *receivedPacket) drop() {
	if p.buffer != nil {
		p.buffer.MaybeRelease()
	}
}

// Look-alike: tryHandle gives the buffer back on some paths, and on the
// path that returns false its caller does: the caller keeps it there.
type tryServer struct{ sess packetSink }

func (s *tryServer) tryHandle(p *receivedPacket) bool {
	if len(p.data) == 0 {
		p.buffer.Release()
		return true
	}
	if len(p.data) > 1200 {
		return false
	}
	s.sess.handlePacket(p)
	return true
}

func (s *tryServer) handle(p *receivedPacket) {
	if !s.tryHandle(p) {
		p.buffer.MaybeRelease()
	}
}

// Look-alike: a branch on the buffer alone decides between giving it back
// and dropping it (too large to keep): either way it is no longer owned.
func dropLarge(b *packetBuffer) {
	if cap(b.Data) > 1452 {
		return
	}
	b.Release()
}

// Look-alike: pack lends the buffer to appendFrames and keeps it in the
// packet it returns: appendFrames borrows it, and owns nothing.
type packer struct{ onAppend func(*packetBuffer) }

func (p *packer) pack() *receivedPacket {
	buffer := getPacketBuffer()
	p.appendFrames(buffer)
	return &receivedPacket{buffer: buffer}
}

func (p *packer) appendFrames(buffer *packetBuffer) {
	if len(buffer.Data) > 1200 {
		return
	}
	buffer.Data = append(buffer.Data, 1)
	p.onAppend(buffer)
}

// Look-alike: a method gives back its receiver's frame on some paths and
// returns early on others, where the stream still holds it (quic-go
// v0.65.0 SendStream.CancelWrite).
type sendStream struct {
	nextFrame *packetBuffer
	done      bool
	offset    int
}

func (s *sendStream) returnFrames() {
	if s.nextFrame != nil {
		s.nextFrame.Release()
		s.nextFrame = nil
	}
}

func (s *sendStream) cancelWrite() {
	if s.done {
		return
	}
	s.done = true
	if s.offset == 0 {
		s.returnFrames()
		return
	}
	if s.nextFrame != nil && len(s.nextFrame.Data) > s.offset {
		s.nextFrame.Release()
		s.nextFrame = nil
	}
}

// A request taken from the pool is handed to the wait queue, which drops
// it when it is full and says so by an error: the caller sees the error
// and must give it back there (nats-server v2.10.22
// consumer.processNextMsgRequest and waitQueue.add, fixed in v2.10.23).
type pullRequest struct {
	next  *pullRequest
	reply string
}

var prPool = sync.Pool{New: func() any { return new(pullRequest) }}

func (wr *pullRequest) recycle() {
	wr.next, wr.reply = nil, ""
	prPool.Put(wr)
}

type pullQueue struct {
	n, max     int
	head, tail *pullRequest
}

var errPullQueueFull = errors.New("wait queue is full")

func (wq *pullQueue) add(wr *pullRequest) error {
	if wq.n >= wq.max {
		return errPullQueueFull
	}
	if wq.head == nil {
		wq.head = wr
	} else {
		wq.tail.next = wr
	}
	wq.tail = wr
	wq.n++
	return nil
}

type consumer struct{ waiting *pullQueue }

func (o *consumer) processNextMsgRequest(reply string) {
	wr := prPool.Get().(*pullRequest)
	wr.reply = reply
	if err := o.waiting.add(wr); err != nil { // want `wr is not given back when add fails: it returns an error at owned.go:\d+`
		return
	}
}

// The fix, on a queue of its own type so that its caller's release does
// not make the one above the caller's: the error path recycles it.
type fixedQueue struct {
	n, max     int
	head, tail *pullRequest
}

func (wq *fixedQueue) add(wr *pullRequest) error {
	if wq.n >= wq.max {
		return errPullQueueFull
	}
	if wq.head == nil {
		wq.head = wr
	} else {
		wq.tail.next = wr
	}
	wq.tail = wr
	wq.n++
	return nil
}

func processFixed(wq *fixedQueue, reply string) {
	wr := prPool.Get().(*pullRequest)
	wr.reply = reply
	if err := wq.add(wr); err != nil {
		wr.recycle()
		return
	}
}

// Look-alike: the entry's own method gives it up on purpose, where a
// reply may still reach it (nats-server v2.15.3 mqttPipelinePush and
// mqttPipelined.abandon).
type pipelined struct {
	reply string
	done  chan struct{}
}

var pipelinedPool = sync.Pool{New: func() any { return new(pipelined) }}

func (p *pipelined) returnToPool() {
	*p = pipelined{done: p.done}
	pipelinedPool.Put(p)
}

// abandon leaves p to the GC: a reply may still complete it.
func (p *pipelined) abandon() { p.reply = "" }

type pipeline struct{ q chan *pipelined }

var errNotRunning = errors.New("server not running")

func (pipe *pipeline) push(p *pipelined) error {
	if pipe.q == nil {
		p.abandon()
		return errNotRunning
	}
	pipe.q <- p
	return nil
}

func pubAck(pipe *pipeline, reply string) error {
	p := pipelinedPool.Get().(*pipelined)
	p.reply = reply
	return pipe.push(p)
}

func drain(pipe *pipeline) {
	for p := range pipe.q {
		p.returnToPool()
	}
}
