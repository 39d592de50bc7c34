# Checkpoints (docs/checkpoint.md).  The file format (emu/checkpoint/*.c) is part of DEVICE_OBJS
# (mk/devices.mk: every device saves its own section).
#   $(B)/malibu-checkpoint info FILE | diff A B   list or compare checkpoint files (tools/malibu-checkpoint.py)
$(B)/malibu-checkpoint: tools/malibu-checkpoint.py
	@mkdir -p $(dir $@)
	cp $< $@
	chmod +x $@

PROGRAMS += $(B)/malibu-checkpoint
