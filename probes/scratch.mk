# The safety checks of a scratch device for `fstune trial`.
libfstune_probes_a_SOURCES += probes/scratch_device.c include/fstune/scratch.h
