// The desktop program's command line, in a module of its own so that its
// import path sorts before Ebitengine's (see boot.go).
module boot.leaselab

go 1.26.8
