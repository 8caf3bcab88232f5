package bytebuf

import (
	"math/bits"

	"github.com/reuse-go/reuse/internal/perp"
)

// Capacities are powers of two: class k holds arrays of 1<<k bytes. A
// Buffer's default and every growth are a power of two, so one class per
// doubling is all the pool keeps (a finer class per quarter of a doubling,
// used only by arrays an append made, was dropped for that).

// sizeClass returns the smallest class whose arrays hold n bytes (0 for
// n <= 1).
func sizeClass(n int) int { return bits.Len(uint(max(n, 1) - 1)) }

// defSize returns the size of class d. The mask tells the compiler the
// shift is below 64, which spares the test Go's shift semantics need (a
// quarter of Get's instructions).
func defSize(d int) int { return 1 << (uint(d) & 63) }

// The sizing rule. Each processor (P) keeps a default capacity, a power of
// two, and counts one Put in sampleEvery of its Puts: over a window of
// those, how many lengths exceeded the default, exceeded twice it, and fitted
// half of it. At the end of each window the default moves:
//
//   - up to the power of two of the smallest length of the window, when every
//     one exceeded it (a rise of any size is followed at once),
//   - else up four-fold when at least an eighth needed more than twice it,
//   - else up two-fold when at least 3/16 needed more than it,
//   - else down to the power of two of the largest length of the window,
//     when every one fitted half of it (a fall of any size likewise),
//   - else down two-fold when at least 15/16 fitted half of it.
//
// So the default settles where fewer than 3/16 of the lengths exceed it and
// more than 1/16 exceed half of it. The rule reads nothing but the lengths,
// in order, so the same lengths give the same defaults.
const (
	// sampleEvery is how many Puts of a P make one sample.
	sampleEvery = 4
	// window is the number of samples a window counts; the first window,
	// which moves the default from its initial value, counts firstWindow.
	window      = 240
	firstWindow = 32
	// initialClass is the class of the default before any window ends:
	// 512 bytes.
	initialClass = 9
	// minClass is the smallest default class: 64 bytes.
	minClass = 6
)

// sizer is the sizing state of one P: the two words perp.Slot gives its
// owner (Aux, Aux2), 32 bits of each, so that 32-bit platforms hold it too.
// The first holds the default, stored as its class XOR initialClass, so
// that the zero state stands for the initial default, with bit 7 set once
// the first window has ended (bits 0-7), then the window's counts: samples
// (8-15), above (16-23), above2 (24-31). The second holds fit2 (0-7), the
// largest class seen in the window (8-15), and 255 less the smallest
// (16-23; 0: none yet). A sample adds to the words in place: a Put that
// unpacked them into bytes and packed them again spent a tenth of a small
// op's time on it.
type sizer struct{ w0, w1 uintptr }

// Counts of a sample, added to a sizer's words.
const (
	oneSample = 1 << 8
	oneAbove  = 1 << 16
	oneAbove2 = 1 << 24
	oneFit2   = 1
)

func (s sizer) n() int      { return int(uint8(s.w0 >> 8)) }
func (s sizer) above() int  { return int(uint8(s.w0 >> 16)) }
func (s sizer) above2() int { return int(uint8(s.w0 >> 24)) }
func (s sizer) fit2() int   { return int(uint8(s.w1)) }
func (s sizer) top() int    { return int(uint8(s.w1 >> 8)) }
func (s sizer) low() int    { return 255 - int(uint8(s.w1>>16)) }
func newWindow(d int) sizer { return sizer{w0: uintptr(uint8(d^initialClass) | 0x80)} }

// begun reports whether the P has counted a sample since its first window
// began (or ended one): its default is then its own, not the pool's hint.
func (s sizer) begun() bool { return s.w0&0xff80 != 0 }

// last reports whether the next sample ends the window.
func (s sizer) last() bool {
	if s.w0&0x80 == 0 {
		return s.n()+1 >= firstWindow
	}
	return s.n()+1 >= window
}

// count counts a sample of class c against the default class d.
func (s *sizer) count(c, d int) {
	w0, w1 := s.w0+oneSample, s.w1
	if c > d {
		w0 += oneAbove
		if c > d+1 {
			w0 += oneAbove2
		}
	} else if c <= d-1 {
		w1 += oneFit2
	}
	top, low := max(w1>>8&0xff, uintptr(c)), max(w1>>16&0xff, uintptr(255-c))
	s.w0, s.w1 = w0, w1&0xff|top<<8|low<<16
}

// sizerDef returns the default class of the packed state whose first word
// is aux.
func sizerDef(aux uintptr) int { return int(uint8(aux)&0x7f ^ initialClass) }

// defOf is sizerDef for p: a P that has counted nothing yet takes the
// default the last window of any P moved to (p.hint), where there is one,
// so that a P that starts serving a pool late does not start from 512
// bytes; its first sample adopts it (see add). With one P, the hint is
// that P's own default: nothing changes.
func (p *Pool) defOf(aux uintptr) int {
	if aux&0xff80 == 0 { // no window ended and none begun
		if h := p.hint.Load(); h != 0 {
			return int(h)
		}
	}
	return sizerDef(aux)
}

// add counts one sample, the length n written into a Buffer put back, and at
// the end of a window moves the default, within the class of p's MaxCap.
// It reports the default class after it, and whether it moved.
func (s *sizer) add(n int, p *Pool) (def int, moved bool) {
	if s.w0&0xff80 == 0 {
		// The first sample of a P: it takes the hint, if there is one, as
		// if a first window had ended on it. Counting a window against a
		// hint that moves meanwhile mixed counts made against different
		// defaults: at 16 Ps each first window read the last one's move as
		// four-fold, and the defaults ran up to MaxCap (4 MiB).
		if h := p.hint.Load(); h != 0 {
			*s = newWindow(int(h))
		}
	}
	d := sizerDef(s.w0)
	s.count(sizeClass(n), d)
	w := window
	if s.w0&0x80 == 0 {
		w = firstWindow
	}
	if k := s.n(); k >= w {
		return s.end(d, k, p)
	}
	return d, false
}

// end ends a window of k samples when the default was d: it moves the
// default by the rule, within the class of p's MaxCap, and begins the next
// window.
func (s *sizer) end(d, k int, p *Pool) (def int, moved bool) {
	nd := s.next(d, k)
	nd = max(minClass, min(nd, p.topClass()))
	*s = newWindow(nd)
	if nd != d {
		p.hint.Store(int32(nd))
	}
	return nd, nd != d
}

// next returns the default class after a window of k samples that ends
// with the counts of s, when the default was d: the rule above.
func (s *sizer) next(d, k int) int {
	switch {
	case s.above() == k:
		return s.low()
	case 8*s.above2() >= k:
		return d + 2
	case 16*s.above() >= 3*k:
		return d + 1
	case s.fit2() == k:
		return s.top()
	case 16*s.fit2() >= 15*k:
		return d - 1
	}
	return d
}

// observe counts one Put of a Buffer that held n bytes on the P whose slot
// is sl, the caller pinned to it: one Put in sampleEvery is a sample of
// the sizer in sl.Aux and sl.Aux2. It reports the default class after it,
// and whether it moved. The phase of the samples is kept above the stack's
// depth, in the bits of sl.Depth from 8 up. (Put has this written out.)
func observe(sl *perp.Slot, n int, p *Pool) (def int, moved bool) {
	dp := sl.Depth + 1<<8
	sl.Depth = dp
	d := p.defOf(sl.Aux)
	if dp&((sampleEvery-1)<<8) != 0 {
		return d, false
	}
	return sample(sl, n, p, d)
}

// sample is the sample part of observe; d is the P's default class. Most
// samples only count: add's whole work is for the first sample of a P and
// the last of a window.
func sample(sl *perp.Slot, n int, p *Pool, d int) (def int, moved bool) {
	s := sizer{sl.Aux, sl.Aux2}
	if !s.begun() || s.last() {
		def, moved = s.add(n, p)
	} else {
		s.count(sizeClass(n), d)
		def = d
	}
	sl.Aux, sl.Aux2 = s.w0, s.w1
	return def, moved
}

// topClass returns the largest default class: the largest power of two
// within MaxCap, so that a default Buffer is always kept.
func (p *Pool) topClass() int { return bits.Len(uint(p.maxCapBytes())) - 1 }

// sharedDef returns the default class where there are no per-P slots (and
// for a P that has none yet).
func (p *Pool) sharedDef() int { return p.defOf(uintptr(p.shared.def.Load())) }

// sharedObserve is observe on the shared state, for Puts where there are no
// per-P slots.
func (p *Pool) sharedObserve(n int) {
	p.shared.mu.Lock()
	p.shared.phase++
	if p.shared.phase%sampleEvery != 0 {
		p.shared.mu.Unlock()
		return
	}
	_, moved := p.shared.st.add(n, p)
	p.shared.def.Store(int32(uint8(p.shared.st.w0)))
	p.shared.mu.Unlock()
	if moved {
		p.changes.Add(1)
	}
}
