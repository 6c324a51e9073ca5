// What the desktop program does before Ebitengine starts (its command line,
// and moving progress in and out without a window), in a module of its own
// so that its import paths sort before Ebitengine's (see boot.go). Its
// packages progress and inputfile are used by the rest of LeaseLab too.
module boot.leaselab

go 1.26.8

require github.com/stretchr/testify v1.12.1

require go.yaml.in/yaml/v3 v3.0.5 // indirect
