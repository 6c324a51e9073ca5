// Package draw is the thin layer that paints game/ui widgets and the lab's
// shapes with Ebitengine: rounded rectangles, circles and arcs (a lease
// countdown ring), arrows, accepted/rejected marks, and wrapped text through
// one shared font cache.
//
// Shapes are not anti-aliased one by one (see paint); the game draws the
// whole screen at twice the resolution and scales it down instead.
//
// Everything is drawn in screen pixels at device scale; sizes that should
// look the same on every display are multiplied by [Style.Unit] (the layout
// unit from ui.UnitFor). Colour is never the only signal: accepted and
// rejected carry a ✓ or ✗ drawn as strokes, focus is a ring, on/off moves a
// knob.
package draw
