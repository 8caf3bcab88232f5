package bytebuf

import "cmp"

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

// sizer is the sizing state of one P, in a slot's State; its zero value is
// that of a P that has counted nothing. It is small (9 bytes) so that P 0's
// is carried over to a new array when the collector frees the last one.
type sizer struct {
	// phase counts the Puts since the last sample, modulo sampleEvery.
	phase uint8
	// off is the default class less initialClass, so that the zero sizer's
	// default is initialClass.
	off int8
	// settled is set when a window has ended: the first counts
	// firstWindow samples, the others window.
	settled bool
	// w counts the samples of the current window.
	w tally
}

// tally is a window's count of samples, against the default class d of the
// window: all fit in a byte, window being below 256.
type tally struct {
	n      uint8 // samples
	above  uint8 // of a class above d
	above2 uint8 // of a class above d+1
	fit2   uint8 // of a class below d: they fit half the default
	top    uint8 // the largest class of a sample
	low    uint8 // the smallest class of a sample, when n > 0
}

// newWindow begins a window with default class d.
func (s *sizer) newWindow(d int) {
	s.off, s.settled, s.w = int8(d-initialClass), true, tally{}
}

// last reports whether the next sample ends the window.
func (s *sizer) last() bool {
	if !s.settled {
		return int(s.w.n)+1 >= firstWindow
	}
	return int(s.w.n)+1 >= window
}

// The sizing's part of Put: one Put in sampleEvery (sizer.phase) is a
// sample, the largest length its Buffer held since its Get. A sample that
// neither begins a P's first window nor ends a window is counted in place
// (tally.count); the others take turn, which can move the default.

// turn counts the sample n for the first sample of a P, which adopts the
// pool's hint as if a first window had ended on it (counting against a hint
// that moved meanwhile ran the defaults up to MaxCap at 16 Ps), and for the
// last of a window, which moves the default by the rule of next, within the
// class of p's MaxCap, and begins the next window. It reports whether the
// default moved.
func (s *sizer) turn(n int, p *Pool) (moved bool) {
	if !s.begun() {
		if h := p.hint.Load(); h != 0 {
			s.newWindow(int(h))
		}
	}
	d, last := s.def(), s.last()
	s.w.count(classOf(n), d)
	if !last {
		return false
	}
	nd := max(minClass, min(s.next(d), p.maxClass()))
	s.newWindow(nd)
	if nd == d {
		return false
	}
	p.hint.Store(int32(nd))
	return true
}

// count counts a sample of class c in a window of default class d.
func (w *tally) count(c, d int) {
	if w.n == 0 || c < int(w.low) {
		w.low = uint8(c)
	}
	w.top = max(w.top, uint8(c))
	w.n++
	if c > d {
		w.above++
		if c > d+1 {
			w.above2++
		}
	} else if c < d {
		w.fit2++
	}
}

// next returns the default class after the window that ends with the counts
// of s, when the default was d: the rule of the package documentation. Below
// smallClass (4 KiB), where a growth costs more time than an array twice as
// large costs memory, the default rises more readily and falls only when
// every sample fitted half of it.
func (s *sizer) next(d int) int {
	w := &s.w
	k, above, above2, fit2 := int(w.n), int(w.above), int(w.above2), int(w.fit2)
	switch {
	case above == k: // every sample above: to the smallest
		return int(w.low)
	case 16*above >= 3*k && 8*above2 >= k: // 3/16 above, an eighth above twice
		return d + 2
	case 16*above >= 3*k, d < smallClass && 32*(above-above2) >= k: // 3/16 above; small: 1/32 within twice
		return d + 1
	case fit2 == k: // every sample within half: to the largest
		return int(w.top)
	case 16*fit2 >= 15*k && d > smallClass: // 15/16 within half
		return d - 1
	}
	return d
}

// sharedClass returns the default class where there are no per-P slots.
func (p *Pool) sharedClass() int { return cmp.Or(int(p.shared.def.Load()), initialClass) }

// sharedSample is Put's sample on the shared state, without per-P slots.
func (p *Pool) sharedSample(n int) {
	p.shared.mu.Lock()
	s := &p.shared.st
	moved := false
	if s.phase++; s.phase%sampleEvery == 0 {
		moved = s.turn(n, p) // not worth a test of whether the sample is a turn
	}
	p.shared.def.Store(int32(s.def()))
	p.shared.mu.Unlock()
	if moved {
		p.changes.Add(1)
	}
}
