module leaselab

go 1.26.8
