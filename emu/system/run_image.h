/* --image DIR and --run CMD (the one-command runs of the guest images, docs/guest-images.md):
 * they become the board's kernel, initrd, root disk (vda) and kernel command line. */
#ifndef MALIBU_SYSTEM_RUN_IMAGE_H
#define MALIBU_SYSTEM_RUN_IMAGE_H

#include <stddef.h>

#include "../../devices/board.h"

/* With cfg->image: DIR/Image and DIR/initrd.img (unless --kernel / --initrd say otherwise) and
 * DIR/rootfs.ext4 (checked: an ext4 filesystem as large as its superblock says) as vda before
 * any --disk / --share.  With cfg->image or cfg->run: the image's command line, cfg->append
 * added, and malibu.run64=base64(CMD).  0, or -1 with a message naming the option in err.
 * The strings made here stay until the next call. */
int run_image_apply(BoardConfig *cfg, char *err, size_t errlen);

#endif
