package core

// slab hands out small slices cut from larger blocks, so the payloads of
// many messages cost one allocation instead of one each. A slice it hands
// out is never handed out again: like every message, it is not changed
// once sent, and it lives as long as anything points into its block.
//
// A slab belongs to one world. A clone must not share one with its source,
// or both would hand out the same spare room: clone.go gives the copy an
// empty slab.
type slab[T any] struct {
	spare []T
	block int // the size of the last block (0: none yet)
}

// slabBlock is how many values a slab's largest block holds; its first
// holds slabFirst, and each next one twice the last, so a world that sends
// a few messages of a kind allocates little for them.
const (
	slabFirst = 16
	slabBlock = 256
)

// take returns n zero values of the slab's own, with no room to append.
func (s *slab[T]) take(n int) []T {
	if n > len(s.spare) {
		if n > slabBlock/4 {
			return make([]T, n) // a large one: a block would waste most of itself
		}
		s.block = min(max(2*s.block, slabFirst), slabBlock)
		s.spare = make([]T, max(s.block, n))
	}
	out := s.spare[:n:n]
	s.spare = s.spare[n:]
	return out
}

// one returns a pointer to one zero value of the slab's own.
func (s *slab[T]) one() *T { return &s.take(1)[0] }
