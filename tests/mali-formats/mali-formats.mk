# Mali descriptor layouts as data (isa/mali/*.fmt, mk/mali-formats.mk) and build/malibu-decode.
#
#   tests/unit/test_mali_formats.c  Check unit test of the generated code: layouts against words
#                                   written from the reference, pack/unpack round trips, reserved
#                                   bits per arch, print (part of `make unit-test` and SAN=1)
$(B)/tests/unit/test_mali_formats: tests/unit/test_mali_formats.c $(B)/obj/gen/mali_formats_print.o $(B)/gen/mali_formats.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(B)/obj/gen/mali_formats_print.o $(CHECK_LIBS) $(LDLIBS) $(LDFLAGS)
