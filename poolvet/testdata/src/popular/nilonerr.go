package popular

import (
	"errors"
	"sync"
)

// An entry is taken from a pool by decodeEntry, which returns nil beside
// every error, and loadEntry forwards both results: nats-server v2.15.3's
// raft.go (loadEntry, decodeAppendEntry). A caller that returns when the
// error is not nil has nothing to give back there.
type entry struct {
	term uint64
	buf  []byte
}

var entryPool = sync.Pool{New: func() any { return new(entry) }}

var errShort = errors.New("short entry")

func (e *entry) returnToPool() { // want returnToPool:`releases`
	e.buf = nil
	entryPool.Put(e)
}

func decodeEntry(msg []byte) (*entry, error) { // want decodeEntry:`takes=\[0\], nil on error`
	if len(msg) < 8 {
		return nil, errShort
	}
	e := entryPool.Get().(*entry)
	e.term, e.buf = uint64(msg[0]), msg
	return e, nil
}

func loadEntry(msg []byte) (*entry, error) { // want loadEntry:`takes=\[0\], nil on error`
	return decodeEntry(msg)
}

func entryTerm(msg []byte) uint64 {
	e, err := loadEntry(msg)
	if err != nil {
		return 0
	}
	t := e.term
	e.returnToPool()
	return t
}

// A wrapper that keeps its value beside an error: the caller's error
// branch leaks it.
func decodeKept(msg []byte) (*entry, error) { // want decodeKept:`takes=\[0\]\)`
	e := entryPool.Get().(*entry)
	if len(msg) < 8 {
		return e, errShort
	}
	e.buf = msg
	return e, nil
}

func keptTerm(msg []byte) uint64 {
	e, err := decodeKept(msg) // want `not given back`
	if err != nil {
		return 0
	}
	t := e.term
	e.returnToPool()
	return t
}
