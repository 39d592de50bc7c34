# Architecture checks (Python; part of make test):
#   make arch-test   tests/arch/include_cycles.py: fails on an include cycle between any two
#                    product directories (every directory with C under emu/, devices/ (the board
#                    assembly apart), firmware/, tools/, isa/, guest-images/apps/), other than the
#                    includes of tests/arch/include_cycles.allow (empty), and on allow-list
#                    entries that no longer close a cycle; first its self-test on synthetic trees
#                    (tests/arch/test_include_cycles.py)
.PHONY: arch-test
TEST_TARGETS += arch-test

arch-test:
	@echo "== architecture: include cycles"
	$(PYTHON) tests/arch/test_include_cycles.py
	$(PYTHON) tests/arch/include_cycles.py --allow tests/arch/include_cycles.allow
