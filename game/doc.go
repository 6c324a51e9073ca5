// Package game is LeaseLab's Ebitengine front end: the [Game] that
// Ebitengine runs, the [Scene]s it shows, and the [State] through which every
// scene gets what it needs. Nothing here is global: the wasm and desktop
// mains build a Game with [Options] and run it.
//
// Each tick the Game calls the scene's Update (input, read against what was
// last laid out, changes state), then its Layout (the one snapshot of that
// state, placed in the window); Draw only paints. Scenes sit on a [Stack]:
// a scene opens another with State.Push, Pop or Replace. What a scene is
// (Scene, State, Stack) lives in game/scene, so a scene can live in a
// package of its own; the names stay here for the mains.
//
// Where things live:
//
//   - A scene: a package of its own.
//     game/menu (the lesson menu, menu.Scene, over its display-free
//     model, menu.Menu), game/lesson (a lesson played, lesson.Scene,
//     with its "Find a break" search, its recap card and the comparison of
//     a schedule replayed with its protection off and on,
//     lesson.Comparison), game/sandbox (sandbox.Scene: the setup panel,
//     then a run, played by a lesson.Scene; sandbox.Systems, one sandbox
//     run on every system at once), game/exercise (an exercise,
//     exercise.Scene, with its answer form, its check builder and the
//     simulator or a checked run over it, and a shared answer graded
//     again, exercise.Shared; the chain builder its form holds is
//     game/answer's (answer.Chain, with the form's column, answer.Flow,
//     and its scrolling, answer.Drag), which a lesson's recap card holds
//     too). The App (app.go) stacks them over the menu. The game/ root
//     keeps the game loop (game.go), the App, the input glue (input.go,
//     host.go) and what the page is told (announce.go, voice.go).
//   - The lesson player: game/player (player.Player, built once from a
//     player.PlayerSpec, with its knobs, narration, run row and cards). A
//     scene holds one and passes it the tick's view.Env. The "Find a
//     break" overlay a lesson adds to it is the lesson's (game/lesson,
//     finder.go).
//   - The views the player draws: game/view, the world (view.World) and
//     the timeline (view.Timeline); a view.View is updated with view.Env,
//     the part of [State] a view reads.
//   - What a scene tells the page around the canvas: game/page ([SceneInfo],
//     its [Mirror] of the scene's text, and what each kind of screen adds),
//     data only; the names stay in this package for the mains.
//   - A widget: game/ui (layout, hit-testing, focus, the intent table of
//     keys), painted by game/draw. Both free of game state.
//   - A learner action: its verb and constructor in core (core.Pause...),
//     which actor offers it in game/lab (actions.go, ChoicesFor), sent as a
//     lab.Command and applied by lab.Lab.Apply, the one way into a run:
//     actions, knob values, found runs and the player's clock commands
//     (play on, step, seek, fork) all take it. A key reaches it through
//     ui's intent table.
//   - A lesson's special view: declared by the lesson (lessons.Lesson's
//     Search, Sweep, SandboxPreset); game/lab computes it (finder.go,
//     compare.go, Lab.Sweep) and the world view (game/view) draws it.
//   - Display-free models, tested with plain go test: game/lab (a run, its
//     snapshot, actions, search, comparison), game/setup (the sandbox's
//     setup), game/form (an exercise's answer), game/ui; saved progress
//     is boot.leaselab/progress (cmd/leaselab/boot/progress), which the
//     desktop program reads before Ebitengine starts.
//   - Tests that draw and read pixels back: run inside Ebitengine's game
//     loop by their TestMain (game/internal/ebitest), under a display. A
//     scene's own package drives it with game/internal/scenetest's rig;
//     the tests here drive the whole App.
package game
