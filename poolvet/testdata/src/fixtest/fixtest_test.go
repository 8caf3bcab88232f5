package fixtest

func init() { scratch.Put(make([]byte, 0, 128)) } // want `non-pointer \[\]byte`
