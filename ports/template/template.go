// Package template is valyala/fasttemplate's Template (v1.2.2) ported onto
// reuse: the same parsing and the same output, with each template's
// bytebufferpool.Pool replaced by a bytebuf.Pool.
//
// What the port changes, as MIGRATING.md describes: fasttemplate resets the
// buffer before putting it back (bb.Reset(); pool.Put(bb)); bytebuf.Pool.Put
// empties it itself, and bounds what it keeps from the first call, where
// bytebufferpool keeps buffers of any size until its first calibration.
// bb.B becomes buf.Bytes().
package template

import (
	"bytes"
	"fmt"
	"io"

	"github.com/reuse-go/reuse/bytebuf"
)

// A TagFunc writes the substitution for tag to w and returns the number of
// bytes written, as fasttemplate.TagFunc.
type TagFunc func(w io.Writer, tag string) (int, error)

// Template is a parsed template; it is safe for concurrent use by multiple
// goroutines.
type Template struct {
	template string
	texts    [][]byte
	tags     []string
	pool     bytebuf.Pool // one per template, as fasttemplate has
}

// New parses template, whose tags lie between startTag and endTag. It
// returns an error when a startTag has no endTag after it, and panics when
// either tag is empty (a programming error), as fasttemplate.NewTemplate.
func New(template, startTag, endTag string) (*Template, error) {
	if startTag == "" || endTag == "" {
		panic("template: New: empty start or end tag")
	}
	t := &Template{template: template}
	s, a, b := []byte(template), []byte(startTag), []byte(endTag)
	if bytes.Count(s, a) == 0 {
		return t, nil
	}
	for {
		n := bytes.Index(s, a)
		if n < 0 {
			t.texts = append(t.texts, s)
			break
		}
		t.texts = append(t.texts, s[:n])
		s = s[n+len(a):]
		n = bytes.Index(s, b)
		if n < 0 {
			return nil, fmt.Errorf("cannot find end tag=%q in the template=%q starting from %q", endTag, template, s)
		}
		t.tags = append(t.tags, string(s[:n]))
		s = s[n+len(b):]
	}
	return t, nil
}

// ExecuteFunc writes the template to w, calling f for each tag.
func (t *Template) ExecuteFunc(w io.Writer, f TagFunc) (int64, error) {
	if t == nil {
		panic("template: Template.ExecuteFunc: nil *Template")
	}
	if w == nil {
		panic("template: Template.ExecuteFunc: nil io.Writer")
	}
	var nn int64
	n := len(t.texts) - 1
	if n == -1 {
		ni, err := io.WriteString(w, t.template)
		return int64(ni), err
	}
	for i := 0; i < n; i++ {
		ni, err := w.Write(t.texts[i])
		nn += int64(ni)
		if err != nil {
			return nn, err
		}
		ni, err = f(w, t.tags[i])
		nn += int64(ni)
		if err != nil {
			return nn, err
		}
	}
	ni, err := w.Write(t.texts[n])
	nn += int64(ni)
	return nn, err
}

// ExecuteFuncString returns the template with each tag replaced by what f
// writes for it, or the error f returned.
func (t *Template) ExecuteFuncString(f TagFunc) (string, error) {
	if t == nil {
		panic("template: Template.ExecuteFuncString: nil *Template")
	}
	buf := t.pool.Get()
	if _, err := t.ExecuteFunc(buf, f); err != nil {
		t.pool.Put(buf) // Put empties it: no Reset first
		return "", err
	}
	s := buf.String() // a copy: buf.Bytes() would be the pool's after Put
	t.pool.Put(buf)
	return s, nil
}

// ExecuteString returns the template with each tag replaced by m[tag], a
// string or []byte (nil or missing: nothing), as fasttemplate's
// ExecuteString.
func (t *Template) ExecuteString(m map[string]any) (string, error) {
	if t == nil {
		panic("template: Template.ExecuteString: nil *Template")
	}
	return t.ExecuteFuncString(func(w io.Writer, tag string) (int, error) { return stdTagFunc(w, tag, m) })
}

func stdTagFunc(w io.Writer, tag string, m map[string]any) (int, error) {
	switch v := m[tag].(type) {
	case nil:
		return 0, nil
	case []byte:
		return w.Write(v)
	case string:
		return w.Write([]byte(v)) // as fasttemplate does, so only the pools differ
	case TagFunc:
		return v(w, tag)
	default:
		return 0, fmt.Errorf("template: tag %q: value of type %T, want []byte, string or TagFunc", tag, v)
	}
}
