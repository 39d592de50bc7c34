# Debian arm64 binaries (busybox-static, xz, sqlite3, python3.13 from trixie) under qemu-aarch64
# and malibu-user; stdout and exit status must match.  Packages are fetched with apt (private state,
# signature/checksum-verified) into guest-images/cache/debian-arm64 and unpacked into a sysroot there.
#
#   make debian-test              (part of make test) gate: DEBIAN_GATE areas/cases must match,
#                                 other mismatches are printed as "skipped: ... not in the gate"
#   make debiantest [DEBIAN_ONLY="xz python/c"]   everything, full report, no gate
# Areas: busybox xz sqlite python (or single cases such as busybox/awk).  The lead widens the gate.
DEBIAN_GATE ?= busybox xz sqlite python
DEBIAN_CACHE ?= guest-images/cache/debian-arm64
DEBIAN_SYSROOT := $(DEBIAN_CACHE)/sysroot
DEBTEST = $(PYTHON) tests/debian/debtest.py --sysroot $(DEBIAN_SYSROOT) --malibu $(B)/malibu-user \
          --workdir $(B)/tests/debian

.PHONY: debian-sysroot debian-test debiantest
TEST_TARGETS += debian-test

debian-sysroot:
	sh tests/debian/fetch.sh $(DEBIAN_CACHE)

debian-test: $(B)/malibu-user debian-sysroot
	@echo "== Debian binaries (gate: $(if $(strip $(DEBIAN_GATE)),$(DEBIAN_GATE),none yet))"
	$(DEBTEST) --gate "$(DEBIAN_GATE)"

debiantest: $(B)/malibu-user debian-sysroot
	$(DEBTEST) --only "$(DEBIAN_ONLY)"
