# Host set-up and the host libraries the tests use.
#   make host-deps   the Debian packages of tools/host-packages: installed when missing (as root or
#                    through sudo), else the exact apt-get line is printed.  `make test` and
#                    `make run` start with it and then re-read the Makefile, whose pkg-config
#                    look-ups need those packages.
#   CHECK_LIBS       the Check unit-test library
.PHONY: host-deps
host-deps:
	@sh tools/host-deps.sh

CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lm -lpthread)
