package core

import (
	"encoding/binary"
	"math/bits"
)

// sha256 is SHA-256 (FIPS 180-4) for Trace.Hash, written out so that core
// does not import crypto/sha256: that package brings the FIPS 140 module with
// it (AES, DRBG, HMAC, SHA-3 and their self-tests, about 110 kB of code), and
// the browser build, which never hashes a trace outside the tests, carries it
// all. A trace hash needs no constant-time code or assembly, only the digest;
// TestSHA256MatchesTheStandardLibrary holds it to crypto/sha256.
type sha256 struct {
	h   [8]uint32
	buf [64]byte
	n   int    // bytes in buf
	len uint64 // bytes written in all
}

var sha256K = [64]uint32{
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}

func newSHA256() *sha256 {
	return &sha256{h: [8]uint32{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}}
}

func (d *sha256) Write(p []byte) (int, error) {
	n := len(p)
	d.len += uint64(n)
	if d.n > 0 {
		c := copy(d.buf[d.n:], p)
		d.n += c
		p = p[c:]
		if d.n < 64 {
			return n, nil
		}
		d.block(d.buf[:])
		d.n = 0
	}
	for len(p) >= 64 {
		d.block(p[:64])
		p = p[64:]
	}
	d.n = copy(d.buf[:], p)
	return n, nil
}

func (d *sha256) WriteString(s string) (int, error) {
	n := len(s)
	for len(s) > 0 {
		c := copy(d.buf[d.n:], s)
		d.n += c
		d.len += uint64(c)
		s = s[c:]
		if d.n == 64 {
			d.block(d.buf[:])
			d.n = 0
		}
	}
	return n, nil
}

// Sum returns the digest of what was written; d is spent.
func (d *sha256) Sum() [32]byte {
	bitLen := d.len * 8
	d.Write([]byte{0x80})
	for d.n != 56 {
		d.Write([]byte{0})
	}
	var l [8]byte
	binary.BigEndian.PutUint64(l[:], bitLen)
	d.Write(l[:])
	var out [32]byte
	for i, v := range d.h {
		binary.BigEndian.PutUint32(out[4*i:], v)
	}
	return out
}

func (d *sha256) block(p []byte) {
	var w [64]uint32
	for i := range 16 {
		w[i] = binary.BigEndian.Uint32(p[4*i:])
	}
	for i := 16; i < 64; i++ {
		s0 := bits.RotateLeft32(w[i-15], -7) ^ bits.RotateLeft32(w[i-15], -18) ^ w[i-15]>>3
		s1 := bits.RotateLeft32(w[i-2], -17) ^ bits.RotateLeft32(w[i-2], -19) ^ w[i-2]>>10
		w[i] = w[i-16] + s0 + w[i-7] + s1
	}
	a, b, c, e, f, g, h, dd := d.h[0], d.h[1], d.h[2], d.h[4], d.h[5], d.h[6], d.h[7], d.h[3]
	for i := range 64 {
		S1 := bits.RotateLeft32(e, -6) ^ bits.RotateLeft32(e, -11) ^ bits.RotateLeft32(e, -25)
		ch := e&f ^ ^e&g
		t1 := h + S1 + ch + sha256K[i] + w[i]
		S0 := bits.RotateLeft32(a, -2) ^ bits.RotateLeft32(a, -13) ^ bits.RotateLeft32(a, -22)
		maj := a&b ^ a&c ^ b&c
		t2 := S0 + maj
		h, g, f, e = g, f, e, dd+t1
		dd, c, b, a = c, b, a, t1+t2
	}
	d.h[0] += a
	d.h[1] += b
	d.h[2] += c
	d.h[3] += dd
	d.h[4] += e
	d.h[5] += f
	d.h[6] += g
	d.h[7] += h
}
