package popular

import (
	"crypto/cipher"
	"errors"
	"io"
	"os"
	"sync"
)

// A block buffer comes from a pool of arrays by size, or is new when none
// fits; loadBlock reads a block into the buffer it is given, or into one
// it takes from the pool when given nil or one too small: nats-server
// v2.12.4's getMsgBlockBuf, recycleMsgBlockBuf and msgBlock.loadBlock.
var blkPoolSmall, blkPoolBig sync.Pool

func getBlockBuf(sz int) []byte { // want getBlockBuf:`takes=\[0\]`
	switch {
	case sz <= 1<<10:
		return blkPoolSmall.Get().(*[1 << 10]byte)[:0]
	case sz <= 1<<16:
		return blkPoolBig.Get().(*[1 << 16]byte)[:0]
	default:
		return make([]byte, 0, sz)
	}
}

func recycleBlockBuf(buf []byte) { // want recycleBlockBuf:`releases\(put=\[0\]`
	switch cap(buf) {
	case 1 << 10:
		blkPoolSmall.Put((*[1 << 10]byte)(buf[:1<<10]))
	case 1 << 16:
		blkPoolBig.Put((*[1 << 16]byte)(buf[:1<<16]))
	}
}

type msgBlock struct {
	path   string
	rbytes uint64
	bek    cipher.Stream
}

var errTooBig = errors.New("block too big")

func (mb *msgBlock) loadBlock(buf []byte) ([]byte, error) { // want loadBlock:`takes=\[0\], through=\[1\]`
	f, err := os.Open(mb.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	sz := int(info.Size())
	if sz > 1<<20 {
		return nil, errTooBig
	}
	if buf == nil || cap(buf) < sz {
		buf = getBlockBuf(sz)
	}
	n, err := io.ReadFull(f, buf[:sz])
	if err == nil {
		mb.rbytes = uint64(n)
	}
	return buf[:n], err
}

// recoverMsgBlock decrypts the block to read its last checksum and never
// gives the buffer back (fixed in v2.12.5 by recycleMsgBlockBuf(buf)).
func (mb *msgBlock) recoverMsgBlock() [8]byte {
	var lchk [8]byte
	if mb.bek != nil {
		if buf, _ := mb.loadBlock(nil); len(buf) >= 8 { // want `value taken from the pool is not given back`
			mb.bek.XORKeyStream(buf, buf)
			copy(lchk[0:], buf[len(buf)-8:])
		}
	}
	return lchk
}

// The fix.
func (mb *msgBlock) recoverFixed() [8]byte {
	var lchk [8]byte
	if mb.bek != nil {
		buf, _ := mb.loadBlock(nil)
		if len(buf) >= 8 {
			mb.bek.XORKeyStream(buf, buf)
			copy(lchk[0:], buf[len(buf)-8:])
		}
		recycleBlockBuf(buf)
	}
	return lchk
}

// Look-alike: a buffer of the caller's own goes in, and comes back (or a
// pooled one in its place, which replaces it): the caller keeps what it
// passed, and loadBlock takes nothing the caller must give back here.
func (mb *msgBlock) readInto(scratch []byte) int {
	buf, err := mb.loadBlock(scratch)
	if err != nil {
		return 0
	}
	return len(buf)
}
