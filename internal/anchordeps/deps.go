//go:build tools

// Package anchordeps keeps in go.mod what the size and start-up anchor needs
// and the lab no longer imports: ../shared/bench/wasm-size-ratio builds the
// Ebitengine hello-world (which draws with text/v2's GoTextFace) inside this
// module, so go-text/typesetting must stay required. The tools build tag
// keeps the package out of every build; go mod tidy still sees its import.
package anchordeps

import _ "github.com/hajimehoshi/ebiten/v2/text/v2"
