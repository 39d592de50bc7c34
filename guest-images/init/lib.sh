# Shared by the guest init scripts (busybox sh).  Conventions (see guest-images/README.md):
#   malibu.run="CMD ARGS"   run CMD with sh -c, print MALIBU_EXIT=<status>, power off
#   malibu.run64=BASE64     the same, command given base64-encoded (any characters)
#   (neither)               interactive shell on the console; MALIBU_EXIT=<status> when it exits
#                           (and one on the screen's tty1 when there is a framebuffer)
#   malibu.keep             don't power off after the command: start a shell instead
#   malibu.skipmod=a,b      initrd: don't load these modules (e.g. panfrost)
#   malibu.loglevel=N       console log level (written to /proc/sys/kernel/printk)
#   malibu.quiet            no markers except failures (build/malibu --run: just the command's output)
# Markers on the console: "MALIBU_INIT: ..." progress, "MALIBU_BOOT_OK <stage>" when userspace is
# up, "MALIBU_EXIT=<n>" after the command.  Then the status goes to the board's "malibu,exit"
# device (build/malibu exits with it) if there is one, else `poweroff -f`.  A virtio disk with
# serial "malibu-share" (build/malibu --share DIR) is mounted on /mnt/host.

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=${TERM:-linux}

log() { [ -n "$MALIBU_QUIET" ] || echo "MALIBU_INIT: $*"; }
warn() { echo "MALIBU_INIT: $*"; }

mounted() { grep -q "^[^ ]* $1 " /proc/mounts 2>/dev/null; }

# mount_basics: /proc, /sys, /dev (devtmpfs), /dev/pts, /run, /tmp, unless already mounted
mount_basics() {
    mkdir -p /proc /sys /dev /run /tmp
    [ -e /proc/self ] || mount -t proc -o nosuid,nodev,noexec proc /proc
    mounted /sys || mount -t sysfs -o nosuid,nodev,noexec sysfs /sys
    mounted /dev || mount -t devtmpfs -o mode=0755,nosuid devtmpfs /dev
    mkdir -p /dev/pts /dev/shm
    mounted /dev/pts || mount -t devpts -o gid=5,mode=620 devpts /dev/pts
    mounted /run || mount -t tmpfs -o mode=0755,nosuid,nodev tmpfs /run
    mounted /tmp || mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs /tmp
    lvl=$(cmdline_get malibu.loglevel)
    [ -n "$lvl" ] && echo "$lvl" > /proc/sys/kernel/printk
    [ -n "$(cmdline_get malibu.quiet)" ] && MALIBU_QUIET=1
    hostname malibu 2>/dev/null
}

# cmdline_get KEY: value of KEY=VALUE on the kernel command line (quotes as the kernel parses
# them: "..." may hold spaces; the quote characters themselves are dropped).  Empty if absent;
# "1" for a bare KEY.
cmdline_get() {
    awk -v key="$1" '{
        s = $0; n = length(s); tok = ""; q = 0; have = 0
        for (i = 1; i <= n + 1; i++) {
            c = (i <= n) ? substr(s, i, 1) : " "
            if (c == "\"") { q = !q; continue }
            if (!q && (c == " " || c == "\t" || c == "\n")) {
                if (tok != "") {
                    if (tok == key) { val = "1"; have = 1 }
                    else if (index(tok, key "=") == 1) { val = substr(tok, length(key) + 2); have = 1 }
                }
                tok = ""
                continue
            }
            tok = tok c
        }
        if (have) print val
    }' "${MALIBU_CMDLINE_FILE:-/proc/cmdline}"
}

poweroff_now() {
    sync
    poweroff -f
    # poweroff -f only returns if the machine can't power off; PID 1 must not exit
    while :; do sleep 3600; done
}

# mount_share: the virtio disk with serial "malibu-share" (build/malibu --share DIR) on /mnt/host
mount_share() {
    for s in /sys/block/vd*/serial; do
        [ -r "$s" ] && [ "$(cat "$s")" = malibu-share ] || continue
        d=${s%/serial}; d=/dev/${d##*/}
        mkdir -p /mnt/host
        if mount -t ext4 "$d" /mnt/host 2>/dev/null || mount -t ext4 -o ro "$d" /mnt/host; then
            log "share $d on /mnt/host"
        else
            warn "cannot mount the share $d on /mnt/host"
        fi
        return
    done
}

# exit_with STATUS: write STATUS to the board's "malibu,exit" device (the emulator exits with
# it), after the console has drained; without one (or if /dev/mem refuses), power off.
exit_with() {
    sync
    for n in /proc/device-tree/exit@*; do
        [ -r "$n/compatible" ] && [ "$(tr -d '\000' <"$n/compatible")" = malibu,exit ] || continue
        con=${MALIBU_CONSOLE:-/dev/console}
        stty -F "$con" "$(stty -F "$con" -g)" 2>/dev/null    # tcsetattr(TCSADRAIN): drain output
        busybox devmem "0x${n##*@}" 32 "$1"
        warn "writing the exit status to ${n##*/} failed"
    done
    poweroff_now
}

# screen_shell: with a screen (/dev/fb0: build/malibu --display), a login shell on its console
# tty1 too, started again when it exits (typing reaches it through the virtio-input keyboard)
screen_shell() {
    [ -e /dev/fb0 ] && [ -e /dev/tty1 ] || return 0
    ( while :; do setsid -c sh -l </dev/tty1 >/dev/tty1 2>&1; sleep 1; done ) &
}

# run_or_shell STAGE: the command from malibu.run / malibu.run64, or an interactive shell
run_or_shell() {
    export RUSTICL_ENABLE=${RUSTICL_ENABLE:-panfrost,llvmpipe}
    cmd=$(cmdline_get malibu.run)
    b64=$(cmdline_get malibu.run64)
    [ -n "$b64" ] && cmd=$(echo "$b64" | base64 -d)
    mount_share
    [ -n "$MALIBU_QUIET" ] || echo "MALIBU_BOOT_OK $1"
    cd /root 2>/dev/null || cd /
    if [ -n "$cmd" ]; then
        [ -n "$MALIBU_QUIET" ] || echo "MALIBU_RUN: $cmd"
        con=${MALIBU_CONSOLE:-/dev/console}
        sh -c "$cmd" <"$con" >>"$con" 2>&1
        rc=$?
        [ -n "$MALIBU_QUIET" ] || echo "MALIBU_EXIT=$rc"
        if [ -n "$(cmdline_get malibu.keep)" ]; then
            screen_shell
            setsid cttyhack sh -l
        fi
    else
        echo "malibu: no malibu.run=... on the kernel command line: interactive shell (exit powers off)"
        screen_shell
        setsid cttyhack sh -l
        rc=$?
        [ -n "$MALIBU_QUIET" ] || echo "MALIBU_EXIT=$rc"
    fi
    exit_with "$rc"
}
