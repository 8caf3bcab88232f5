package popular

import (
	"sync"
	"time"
)

// A waitingRequest is recycled by recycleIfDone when it is done, and its
// result says whether it was: nats-server v2.15.3's consumer.go.
type waitingRequest struct {
	n     int
	hb    time.Duration
	hbt   time.Time
	reply string
	next  *waitingRequest
}

var wrPool = sync.Pool{New: func() any { return new(waitingRequest) }}

func (wr *waitingRequest) recycle() { // want recycle:`releases`
	if wr != nil {
		wr.next, wr.reply = nil, ""
		wrPool.Put(wr)
	}
}

func (wr *waitingRequest) recycleIfDone() bool { // want recycleIfDone:`putif=\[0\] when result 0 is true`
	if wr != nil && wr.n <= 0 {
		wr.recycle()
		return true
	}
	return false
}

// recycled reports false when it recycled wr.
func (wr *waitingRequest) kept() bool { // want kept:`putif=\[0\] when result 0 is false`
	if wr.n > 0 {
		return true
	}
	wr.recycle()
	return false
}

func clustered() bool { return time.Now().Unix()%2 == 0 }

func removePending(string) {}

// deliver is consumer.go's getNextMsg: wr is used only when it was not
// recycled.
func deliver(wr *waitingRequest) string {
	dsubj := wr.reply
	if done := wr.recycleIfDone(); done && clustered() {
		removePending(dsubj)
	} else if !done && wr.hb > 0 {
		wr.hbt = time.Now().Add(wr.hb)
	}
	return dsubj
}

func deliverNot(wr *waitingRequest) int {
	if done := wr.recycleIfDone(); !done {
		return wr.n
	}
	return 0
}

func deliverKept(wr *waitingRequest) int {
	if wr.kept() {
		return wr.n
	}
	return 0
}

// Look-alikes: wr is used on the branch where it was recycled, and the
// return after recycle that nats-server fixed.
func deliverDone(wr *waitingRequest) int {
	if wr.recycleIfDone() {
		return wr.n // want `wr is used after Put`
	}
	return 0
}

func deliverNotKept(wr *waitingRequest) int {
	if !wr.kept() {
		return wr.n // want `wr is used after Put`
	}
	return 0
}

func popRecycled(wr *waitingRequest) string {
	wr.recycle()
	return wr.reply // want `wr is used after Put`
}
