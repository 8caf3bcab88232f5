package codectest

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
	"testing"
)

// The stream below is what caught kgzip reusing klauspost decoders: deflate
// data that only a decoder holding the previous stream's tables accepts.

// bitWriter packs deflate's fields least significant bit first (RFC 1951
// section 3.1.1).
type bitWriter struct {
	out  []byte
	bits uint64
	n    uint
}

func (w *bitWriter) write(v uint64, n uint) {
	w.bits |= v << w.n
	w.n += n
	for w.n >= 8 {
		w.out = append(w.out, byte(w.bits))
		w.bits >>= 8
		w.n -= 8
	}
}

// writeCode writes a Huffman code, whose bits go most significant first.
func (w *bitWriter) writeCode(code uint64, n uint) {
	var rev uint64
	for i := uint(0); i < n; i++ {
		rev = rev<<1 | (code>>i)&1
	}
	w.write(rev, n)
}

func (w *bitWriter) align() {
	if w.n > 0 {
		w.write(0, 8-w.n)
	}
}

// canonical returns the canonical Huffman codes of lengths (RFC 1951 3.2.2).
func canonical(lengths []int) []uint64 {
	var count [16]int
	for _, l := range lengths {
		if l > 0 {
			count[l]++
		}
	}
	var next [16]uint64
	code := uint64(0)
	for l := 1; l < 16; l++ {
		code = (code + uint64(count[l-1])) << 1
		next[l] = code
	}
	codes := make([]uint64, len(lengths))
	for i, l := range lengths {
		if l > 0 {
			codes[i] = next[l]
			next[l]++
		}
	}
	return codes
}

// EmptyDistanceTree returns a raw deflate stream that no fresh decoder
// accepts: a stored block of n bytes 'y', then a dynamic block whose
// distance tree is empty (legal only if the block uses no distance) and that
// nevertheless holds a length code, followed by zero bits. A fresh decoder
// finds no distance code and fails; klauspost's decoder of v1.18.0, used
// before on a stream with a dynamic block, decodes the distance with that
// stream's distance tree, copies three bytes and reads the zero bits as the
// end of the block.
func EmptyDistanceTree(n int) []byte {
	var w bitWriter
	w.write(0, 1) // BFINAL=0
	w.write(0, 2) // BTYPE=00, stored
	w.align()
	w.write(uint64(n), 16)
	w.write(uint64(^uint16(n)), 16)
	w.out = append(w.out, bytes.Repeat([]byte("y"), n)...)

	w.write(1, 1) // BFINAL=1
	w.write(2, 2) // BTYPE=10, dynamic
	const nlit, ndist = 258, 1
	w.write(nlit-257, 5)
	w.write(ndist-1, 5)
	// Code length code: 18 (a run of zeros) in 1 bit, 0 and 1 in 2 bits.
	order := []int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
	clen := make([]int, 19)
	clen[18], clen[0], clen[1] = 1, 2, 2
	const nclen = 18 // up to symbol 1 in the order above
	w.write(nclen-4, 4)
	for _, s := range order[:nclen] {
		w.write(uint64(clen[s]), 3)
	}
	cc := canonical(clen)
	zeros := func(k int) { w.writeCode(cc[18], uint(clen[18])); w.write(uint64(k-11), 7) }
	zeros(138)                        // literals 0-137: absent
	zeros(118)                        // literals 138-255: absent
	w.writeCode(cc[1], uint(clen[1])) // end of block: 1 bit
	w.writeCode(cc[1], uint(clen[1])) // length code 257 (3 bytes): 1 bit
	w.writeCode(cc[0], uint(clen[0])) // the only distance code: absent
	lit := make([]int, nlit)
	lit[256], lit[257] = 1, 1
	lc := canonical(lit)
	w.writeCode(lc[257], 1) // copy 3 bytes from a distance nobody declared
	w.write(0, 64)          // whatever the distance takes, then end of block
	return w.out
}

// GzipOf wraps raw deflate data, of which the decoder will read consumed
// bytes, in a gzip member whose trailer matches want.
func GzipOf(deflate []byte, consumed int, want []byte) []byte {
	out := []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}
	out = append(out, deflate[:consumed]...)
	out = binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(want))
	return binary.LittleEndian.AppendUint32(out, uint32(len(want)))
}

// countingReader counts the bytes a decoder takes.
type countingReader struct {
	bytes.Reader
	n int
}

func (r *countingReader) ReadByte() (byte, error) {
	b, err := r.Reader.ReadByte()
	if err == nil {
		r.n++
	}
	return b, err
}

func (r *countingReader) Read(p []byte) (int, error) {
	n, err := r.Reader.Read(p)
	r.n += n
	return n, err
}

// Resetter is klauspost/compress flate's Resetter, by its method set.
type Resetter interface {
	Reset(r io.Reader, dict []byte) error
}

// StaleStream returns a gzip stream that a flate decoder made by newFlate
// (klauspost's flate.NewReader) accepts once it has just decoded the deflate
// data of previous, a gzip member with a bare 10-byte header, and the output
// it gives. A fresh decoder rejects the stream: a pooled one that accepts it
// kept the previous stream's distance tree.
func StaleStream(t testing.TB, previous []byte, newFlate func(io.Reader) io.ReadCloser) (stream, output []byte) {
	t.Helper()
	if previous[3] != 0 {
		t.Fatalf("setup: gzip header flags %#x, want none", previous[3])
	}
	d := newFlate(bytes.NewReader(previous[10 : len(previous)-8]))
	if _, err := io.Copy(io.Discard, d); err != nil {
		t.Fatal(err)
	}
	raw := EmptyDistanceTree(40000)
	cr := &countingReader{}
	cr.Reset(raw)
	if err := d.(Resetter).Reset(cr, nil); err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(d)
	if err != nil {
		t.Fatalf("setup: klauspost/compress no longer reuses the previous stream's distance tree (%v): "+
			"check whether kgzip can pool readers again", err)
	}
	return GzipOf(raw, cr.n, out), out
}
