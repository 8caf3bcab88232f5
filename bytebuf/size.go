package bytebuf

import "math/bits"

// Size classes: four per doubling (1024, 1280, 1536, 1792, 2048, ...), so
// that rounding a length up to its class wastes less than a quarter of it;
// every power of two is a class size. Classes are numbered from 0 (size 1).

// classOf returns the smallest class whose size is at least n (0 for n <= 1).
func classOf(n int) int {
	m := uint(max(n, 1) - 1)
	s := bits.Len(m|7) - 3
	return 4*s + int(m>>s)
}

// classSize returns the size of class c >= 0.
func classSize(c int) int {
	k := c + 1
	sh := max(k>>2-1, 0)
	return (k - 4*sh) << sh
}

// The sizing rule. Each processor (P) keeps a default class and counts,
// over a window of the lengths written into the Buffers put back on it,
// how many exceed the default, exceed twice it, fit a class below it and
// fit half of it. At the end of each window the default moves:
//
//   - up to the class of the smallest length of the window, when every
//     length of the window exceeded it (a rise of any size is followed at
//     once),
//   - else up two-fold when at least an eighth needed more than twice it,
//   - else up one class when at least 3/16 needed more than it,
//   - else down to the class of the largest length of the window, when
//     every length of the window fitted half of it (a fall of any size is
//     followed at once),
//   - else down two-fold when at least 15/16 fitted half of it,
//   - else down one class when at least 15/16 fitted a class below it.
//
// So the default settles where fewer than a fifth of the lengths exceed it
// and more than a sixteenth exceed the class below: about the 85th to 95th
// percentile of the lengths. A window is 240 lengths (32 for the first). The rule reads nothing but the lengths, in
// order, so the same lengths give the same defaults.
const (
	// window is the number of lengths a window counts; the first window,
	// which moves the default from its initial value, counts firstWindow.
	window      = 240
	firstWindow = 32
)

const (
	// initialClass is the class of the default before any window ends:
	// 512 bytes.
	initialClass = 4*6 + 7 // classSize(31) == 512
	// minClass is the smallest default class: 64 bytes.
	minClass = 4*3 + 7 // classSize(19) == 64
)

// sizer is the sizing state of one P, packed into the two words perp.Slot
// gives its owner (Aux, Aux2), 32 bits of each.
type sizer struct {
	def                       uint8 // the default class; 0 before the first window ends
	n                         uint8 // lengths seen in this window
	above, above2, fit1, fit4 uint8 // the counts described above
	top, low                  uint8 // the largest and smallest class seen in this window, low+1 (0: none yet)
}

func unpack(aux, aux2 uintptr) sizer {
	return sizer{
		def: uint8(aux), n: uint8(aux >> 8), above: uint8(aux >> 16), above2: uint8(aux >> 24),
		fit1: uint8(aux2), fit4: uint8(aux2 >> 8), top: uint8(aux2 >> 16), low: uint8(aux2 >> 24),
	}
}

func (s sizer) pack() (aux, aux2 uintptr) {
	aux = uintptr(s.def) | uintptr(s.n)<<8 | uintptr(s.above)<<16 | uintptr(s.above2)<<24
	aux2 = uintptr(s.fit1) | uintptr(s.fit4)<<8 | uintptr(s.top)<<16 | uintptr(s.low)<<24
	return aux, aux2
}

// defClass returns the default class s stands for.
func (s sizer) defClass() int {
	if s.def == 0 {
		return initialClass
	}
	return int(s.def)
}

// sizerDef returns the default class of the packed state whose first word
// is aux.
func sizerDef(aux uintptr) int { return unpack(aux, 0).defClass() }

// add counts the length n written into a Buffer put back, and at the end of
// a window moves the default, within top (the class of MaxCap). It reports
// the default class after it, and whether it moved.
func (s *sizer) add(n, top int) (def int, moved bool) {
	d := s.defClass()
	c := classOf(n)
	s.n++
	s.top = max(s.top, uint8(min(c, 254)))
	if s.low == 0 || int(s.low) > c+1 {
		s.low = uint8(min(c, 254) + 1)
	}
	switch {
	case c > d+4:
		s.above2++
		s.above++
	case c > d:
		s.above++
	case c <= d-4:
		s.fit4++
		s.fit1++
	case c <= d-1:
		s.fit1++
	}
	w := window
	if s.def == 0 {
		w = firstWindow
	}
	k := int(s.n)
	if k < w {
		return d, false
	}
	nd := d
	switch {
	case int(s.above) == k:
		nd = int(s.low) - 1
	case 8*int(s.above2) >= k:
		nd = d + 4
	case 16*int(s.above) >= 3*k:
		nd = d + 1
	case int(s.fit4) == k:
		nd = int(s.top)
	case 16*int(s.fit4) >= 15*k:
		nd = d - 4
	case 16*int(s.fit1) >= 15*k:
		nd = d - 1
	}
	nd = max(minClass, min(nd, top))
	*s = sizer{def: uint8(nd)}
	return nd, nd != d
}

// observe is add on the packed state in *aux and *aux2.
func observe(aux, aux2 *uintptr, n, top int) (def int, moved bool) {
	s := unpack(*aux, *aux2)
	def, moved = s.add(n, top)
	*aux, *aux2 = s.pack()
	return def, moved
}

// topClass returns the largest default class: the class of MaxCap, or the
// one below when MaxCap is not a class size, so that a default Buffer is
// always kept.
func (p *Pool) topClass() int {
	c := classOf(p.maxCapBytes())
	if classSize(c) > p.maxCapBytes() {
		c--
	}
	return min(c, 255)
}

// sharedDef returns the default class where there are no per-P slots (and
// for a P that has none yet).
func (p *Pool) sharedDef() int {
	if d := p.shared.def.Load(); d > 0 {
		return int(d)
	}
	return initialClass
}

// sharedGet is the sizing part of Get where there are no per-P slots: it
// counts the Get.
func (p *Pool) sharedGet() int {
	p.gets.Add(1)
	return p.sharedDef()
}

// sharedObserve is observe on the shared state.
func (p *Pool) sharedObserve(n int) {
	p.shared.mu.Lock()
	d, moved := p.shared.st.add(n, p.topClass())
	p.shared.mu.Unlock()
	if moved {
		p.shared.def.Store(int32(d))
		p.changes.Add(1)
	}
}
