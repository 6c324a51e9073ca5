package player

import (
	"fmt"
	"slices"
)

// SetSpeed sets the playback speed to one of the player's speeds (1/4x to
// 64x of virtual time); any other value is refused.
func (p *Player) SetSpeed(x float64) error {
	i := slices.Index(speeds, x)
	if i < 0 {
		return fmt.Errorf("speed %gx: want one of %v", x, speeds)
	}
	p.speed.SetValue(float64(i))
	return nil
}
