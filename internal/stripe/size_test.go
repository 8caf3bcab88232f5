package stripe

import "unsafe"

func unsafeSizeofCell() uintptr { return unsafe.Sizeof(cell{}) }
