// Command codecgen writes the api.go file of a pooled compression package
// (gzpool, zlibpool, flatepool, kgzip) from one template, api.go.tmpl: the
// exported functions and handles, which only call the package's codec.Codec,
// and their documentation. Run it through go generate in the package's
// directory:
//
//	//go:generate go run ../tools/codecgen gzpool
//
// Lines of the template that start with "//> " are doc-comment paragraphs,
// wrapped here at 78 columns.
package main

import (
	"bytes"
	_ "embed"
	"fmt"
	"go/format"
	"os"
	"strings"
	"text/template"
)

//go:embed api.go.tmpl
var tmpl string

// spec is what differs between the packages' APIs.
type spec struct {
	Package    string
	Stream     string // "gzip stream"
	Noun       string // "gzip", as in "a pooled gzip compressor"
	Lib        string // the library pooled
	WriterType string // whose Flush Writer.Flush mirrors
	ReadError  string // an error Read returns
	Overhead   int    // fixed bytes of a stream at NoCompression
	Levels     string
	// DecompressInput follows the first sentence of Decompress's doc.
	DecompressInput string
	// DecompressAllocs says what Decompress allocates.
	DecompressAllocs string
	// ReaderHeader ends NewReader's first sentence.
	ReaderHeader string
}

const (
	stdLevels = "The level is one of %s's: HuffmanOnly (-2), DefaultCompression (-1), NoCompression (0), or BestSpeed (1) to BestCompression (9); any other level returns an error wrapping ErrLevel."
	header    = ", having read its header. A missing or invalid header returns an error wrapping ErrCorrupt and the cause (io.EOF for empty input)."
	members   = "A stream of several members, as concatenating gzip files produces, decompresses to the concatenation of their contents, as compress/gzip does."
	trailer   = "When the trailer is wrong it grows the output by doubling up to an eighth of the limit (or 32 KiB), then decompresses the stream twice, once to measure it and once into a buffer of its size, so that it allocates at most 1.25 times the limit plus 64 KiB%s; a valid stream of several members, whose last trailer sizes only the last member, can cost that size more."
	noTrailer = "Decompress does not allocate when dst has room for the output; otherwise it grows the output by doubling, from 512 bytes, up to an eighth of the limit (or 32 KiB). Longer output is decompressed twice, once to measure it and once into a buffer of its size, so that whatever the input Decompress allocates at most 1.25 times the limit plus 64 KiB."
)

var specs = map[string]spec{
	"gzpool": {
		Package: "gzpool", Stream: "gzip stream", Noun: "gzip", Lib: "compress/gzip",
		WriterType: "gzip.Writer", ReadError: "gzip.ErrChecksum", Overhead: 25,
		Levels:           fmt.Sprintf(stdLevels, "compress/gzip"),
		DecompressInput:  members,
		DecompressAllocs: "Decompress does not allocate when dst has room for the output; otherwise it usually allocates once, sized from the stream's trailer. " + fmt.Sprintf(trailer, ""),
		ReaderHeader:     header,
	},
	"zlibpool": {
		Package: "zlibpool", Stream: "zlib stream", Noun: "zlib", Lib: "compress/zlib",
		WriterType: "zlib.Writer", ReadError: "zlib.ErrChecksum", Overhead: 11,
		Levels:           fmt.Sprintf(stdLevels, "compress/zlib"),
		DecompressInput:  "Streams that need a preset dictionary are not supported: they return an error wrapping ErrCorrupt and zlib.ErrDictionary. Bytes after the end of the stream are ignored, as compress/zlib ignores them.",
		DecompressAllocs: noTrailer,
		ReaderHeader:     header,
	},
	"flatepool": {
		Package: "flatepool", Stream: "raw deflate (RFC 1951) stream", Noun: "raw deflate (RFC 1951)", Lib: "compress/flate",
		WriterType: "flate.Writer", ReadError: "a flate.CorruptInputError", Overhead: 5,
		Levels:           fmt.Sprintf(stdLevels, "compress/flate"),
		DecompressInput:  "Bytes after the final block are ignored, as compress/flate ignores them. Raw deflate has no checksum: damage that still decodes goes unnoticed.",
		DecompressAllocs: noTrailer,
		ReaderHeader:     ". A raw deflate stream has no header, so NewReader reads nothing and returns no error.",
	},
	"kgzip": {
		Package: "kgzip", Stream: "gzip stream", Noun: "gzip", Lib: "github.com/klauspost/compress/gzip",
		WriterType: "gzip.Writer", ReadError: "gzip.ErrChecksum", Overhead: 25,
		Levels:          "The level is one of github.com/klauspost/compress/gzip's: HuffmanOnly (-2), DefaultCompression (-1, which is 5 there), NoCompression (0), or BestSpeed (1) to BestCompression (9); any other level returns an error wrapping ErrLevel.",
		DecompressInput: members,
		DecompressAllocs: "Decompress takes a new klauspost decoder for every call, about 38 KB in 7 allocations (see \"Readers are not reused\" in the package documentation); beyond that it does not allocate when dst has room for the output, and otherwise usually allocates once, sized from the stream's trailer. " +
			fmt.Sprintf(trailer, " and a second decoder"),
		ReaderHeader: header,
	},
}

// generate returns the api.go of the package named pkg.
func generate(pkg string) ([]byte, error) {
	s, ok := specs[pkg]
	if !ok {
		return nil, fmt.Errorf("codecgen: generate: no package %q", pkg)
	}
	t, err := template.New("api.go").Parse(tmpl)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, s); err != nil {
		return nil, err
	}
	var out strings.Builder
	for line := range strings.Lines(b.String()) {
		if text, ok := strings.CutPrefix(line, "//> "); ok {
			wrap(&out, strings.TrimSuffix(text, "\n"), 78)
			continue
		}
		out.WriteString(line)
	}
	return format.Source([]byte(out.String()))
}

// wrap writes text as "// " comment lines of at most width columns (a word
// longer than that has a line of its own).
func wrap(out *strings.Builder, text string, width int) {
	line := "//"
	for _, w := range strings.Fields(text) {
		if len(line)+1+len(w) > width && line != "//" {
			out.WriteString(line + "\n")
			line = "//"
		}
		line += " " + w
	}
	out.WriteString(line + "\n")
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: codecgen PACKAGE (writes ./api.go)")
		os.Exit(2)
	}
	src, err := generate(os.Args[1])
	if err == nil {
		err = os.WriteFile("api.go", src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
