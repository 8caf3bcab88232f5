package bytebuf

import "github.com/reuse-go/reuse/internal/perp"

// The sizing rule is the package documentation's ("How the pool sizes its
// Buffers"): sizer counts the samples of a window, next moves the default.
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
	// smallClass is the class of 4 KiB: below it, a growth costs more
	// than an array's memory, and the default rises and falls more readily.
	smallClass = 12
)

// sizer is the sizing state of one P in the two words perp.Slot gives its
// owner (Aux, Aux2), 32 bits of each, so that 32-bit platforms hold it too:
// the default's class XOR initialClass, so that zero is the initial one,
// with bit 7 set after the first window (bits 0-7), then the window's
// samples, above and above2 (8-31); fit2, the largest class seen, and 255
// less the smallest, 0 for none (0-23). A sample adds to the words in place.
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

// add counts one sample, the length n written into a Buffer put back, and at
// the end of a window moves the default, within the class of p's MaxCap.
// It reports the default class after it, and whether it moved.
func (s *sizer) add(n int, p *Pool) (def int, moved bool) {
	if s.w0&0xff80 == 0 {
		// The first sample of a P adopts the hint, as if a first window had
		// ended on it (counting against a hint that moved meanwhile ran the
		// defaults up to MaxCap at 16 Ps).
		if h := p.hint.Load(); h != 0 {
			*s = newWindow(int(h))
		}
	}
	d, last := sizerDef(s.w0), s.last()
	s.count(sizeClass(n), d)
	if last {
		return s.end(d, s.n(), p)
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
	case 16*s.above() >= 3*k && 8*s.above2() >= k:
		return d + 2
	case 16*s.above() >= 3*k, d < smallClass && 32*(s.above()-s.above2()) >= k:
		return d + 1
	case s.fit2() == k:
		return s.top()
	case 16*s.fit2() >= 15*k && d > smallClass:
		return d - 1
	}
	return d
}

// sample counts n, a Put's length, on sl's P, whose default class is d, the
// caller pinned to it: one Put in sampleEvery is a sample (Put keeps the
// phase in sl.Depth from bit 8). add's whole work runs only for the first
// sample of a P and the last of a window. It reports the default class
// after it, and whether it moved.
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

// sharedDef returns the default class where there are no per-P slots (and
// for a P that has none yet).
func (p *Pool) sharedDef() int { return p.defOf(uintptr(p.shared.def.Load())) }

// sharedObserve is Put's count on the shared state, without per-P slots.
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
