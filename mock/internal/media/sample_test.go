package media

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/binary"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"regexp"
	"strconv"
	"testing"

	"github.com/plantmock/plantmock/mock/internal/openapi"
)

// TestSampleImages decodes each image sample with the standard library.
func TestSampleImages(t *testing.T) {
	tests := []struct {
		mt     string
		decode func(io.Reader) (image.Image, error)
		format string
	}{
		{"image/png", png.Decode, "png"},
		{"image/gif", gif.Decode, "gif"},
		{"image/jpeg", jpeg.Decode, "jpeg"},
		{"IMAGE/JPG", jpeg.Decode, "jpeg"},
		{"image/*", png.Decode, "png"},
	}
	for _, tt := range tests {
		t.Run(tt.mt, func(t *testing.T) {
			b := Sample(tt.mt, nil)
			img, err := tt.decode(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if got := img.Bounds(); got != image.Rect(0, 0, 1, 1) {
				t.Errorf("bounds %v, want 1x1", got)
			}
			if _, format, err := image.DecodeConfig(bytes.NewReader(b)); err != nil || format != tt.format {
				t.Errorf("image.DecodeConfig: %q, %v; want %q", format, err, tt.format)
			}
		})
	}
	// The PNG is what image/png writes for one white grey pixel.
	img, _ := png.Decode(bytes.NewReader(Sample("image/png", nil)))
	if got := color.GrayModel.Convert(img.At(0, 0)); got != (color.Gray{Y: 0xff}) {
		t.Errorf("PNG pixel %v, want white", got)
	}
}

func TestSamplePDF(t *testing.T) {
	b := Sample("application/pdf", nil)
	if !bytes.HasPrefix(b, []byte("%PDF-1.4\n")) || !bytes.HasSuffix(b, []byte("%%EOF\n")) {
		t.Fatalf("not a PDF:\n%s", b)
	}
	m := regexp.MustCompile(`startxref\n(\d+)\n`).FindSubmatch(b)
	if m == nil {
		t.Fatal("no startxref")
	}
	xref, _ := strconv.Atoi(string(m[1]))
	if !bytes.HasPrefix(b[xref:], []byte("xref\n0 4\n")) {
		t.Fatalf("startxref %d does not point at the xref table", xref)
	}
	entries := b[xref+len("xref\n0 4\n"):]
	for i := 0; i < 4; i++ {
		e := entries[i*20 : (i+1)*20]
		if i == 0 {
			if string(e) != "0000000000 65535 f \n" {
				t.Errorf("entry 0 = %q", e)
			}
			continue
		}
		off, err := strconv.Atoi(string(e[:10]))
		if err != nil || string(e[10:]) != " 00000 n \n" {
			t.Fatalf("entry %d = %q", i, e)
		}
		if want := strconv.Itoa(i) + " 0 obj\n"; !bytes.HasPrefix(b[off:], []byte(want)) {
			t.Errorf("entry %d points at %q, want %q", i, b[off:off+len(want)], want)
		}
	}
}

func TestSampleArchives(t *testing.T) {
	t.Run("zip", func(t *testing.T) {
		b := Sample("application/zip", nil)
		z, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil || len(z.File) != 0 {
			t.Fatalf("zip: %v, %v", z, err)
		}
	})
	for _, mt := range []string{"application/gzip", "gzip"} {
		t.Run(mt, func(t *testing.T) {
			r, err := gzip.NewReader(bytes.NewReader(Sample(mt, nil)))
			if err != nil {
				t.Fatal(err)
			}
			if b, err := io.ReadAll(r); err != nil || len(b) != 0 {
				t.Fatalf("gunzip: %q, %v", b, err)
			}
		})
	}
}

func TestSampleWAV(t *testing.T) {
	b := Sample("audio/x-wav", nil)
	var h struct {
		Riff     [4]byte
		Size     uint32
		Wave     [4]byte
		Fmt      [4]byte
		FmtSize  uint32
		Format   uint16
		Channels uint16
		Rate     uint32
		ByteRate uint32
		Align    uint16
		Bits     uint16
		Data     [4]byte
		DataSize uint32
	}
	if err := binary.Read(bytes.NewReader(b), binary.LittleEndian, &h); err != nil {
		t.Fatal(err)
	}
	if string(h.Riff[:]) != "RIFF" || string(h.Wave[:]) != "WAVE" || string(h.Fmt[:]) != "fmt " || string(h.Data[:]) != "data" ||
		h.Size != uint32(len(b)-8) || h.FmtSize != 16 || h.Format != 1 || h.Channels != 1 ||
		h.ByteRate != h.Rate*uint32(h.Align) || h.Align != h.Bits/8 || h.DataSize != 0 || len(b) != 44 {
		t.Errorf("bad WAV header %+v (%d bytes)", h, len(b))
	}
}

func TestSample(t *testing.T) {
	b64 := typed("string")
	b64.Format = "byte"
	tests := []struct {
		name, mt string
		schema   *openapi.Schema
		want     string
	}{
		{"octet-stream", "application/octet-stream", nil, sampleOctets},
		{"unknown type", "application/x-thing", nil, sampleOctets},
		{"not a media type", "thing", nil, sampleOctets},
		{"unknown range", "model/*", nil, sampleOctets},
		{"video range", "video/*", nil, sampleOctets},
		{"SVG", "image/svg+xml", nil, `<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>` + "\n"},
		{"base64", "image/gif", b64, base64.StdEncoding.EncodeToString([]byte(sampleGIF))},
		{"JSON", "application/json", nil, "{}"},
		{"JSON array", "application/json", array("", nil), "[]"},
		{"any", "*/*", nil, "{}"},
		{"XML", "application/xml", object("Pet"), xmlDecl + "<Pet/>\n"},
		{"form", "application/x-www-form-urlencoded", nil, ""},
		{"text", "text/plain", b64, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Sample(tt.mt, tt.schema); string(got) != tt.want {
				t.Errorf("Sample(%s) = %q, want %q", tt.mt, got, tt.want)
			}
		})
	}
	t.Run("the caller's to keep", func(t *testing.T) {
		b := Sample("image/png", nil)
		b[0] = 'X'
		if Sample("image/png", nil)[0] != 0x89 {
			t.Error("changing a sample changed the next one")
		}
	})
	t.Run("SVG is XML", func(t *testing.T) { wellFormed(t, Sample("image/svg+xml", nil)) })
}
