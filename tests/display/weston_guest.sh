#!/bin/sh
# Guest side of make display-weston-test (tests/display/weston_test.py), from the share:
#   weston_guest.sh egl     weston with weston-simple-egl; once weston has shown 3 of its frames,
#                           prints weston's GL renderer, the count of frames shown and the
#                           client's render-node fdinfo, then returns with weston and the client
#                           still on screen (the screenshot)
#   weston_guest.sh input   weston with weston-terminal; prints WESTON_READY when the terminal is
#                           up, then waits for what the host types and clicks in the window:
#                           /tmp/typed written by the terminal's shell (TYPED: its contents), and
#                           a weston-simple-egl started by a click on the panel's launcher
#                           (CLICKED: ...)
# Each step has a time limit; a line "WESTON_FAIL: ..." says which one ran out.
mode=$1
wait_for() {    # wait_for SECONDS CONDITION...: poll CONDITION every second
    n=$1; shift
    while [ $n -gt 0 ]; do
        "$@" && return 0
        sleep 1; n=$((n - 1))
    done
    return 1
}
# frame callbacks done in simple-egl's protocol log (libwayland 1.23+ writes wl_callback#N,
# older versions @N; ids are reused, and wl_display.sync makes callbacks too)
shown() {
    awk '{ if (match($0, /wl_surface[@#][0-9]+\.frame\(new id wl_callback[@#][0-9]+/)) {
               s = substr($0, RSTART, RLENGTH); sub(/.*wl_callback[@#]/, "", s); frame[s] = 1 }
           else if (match($0, /new id wl_callback[@#][0-9]+/)) {
               s = substr($0, RSTART, RLENGTH); sub(/.*wl_callback[@#]/, "", s); frame[s] = 0 }
           else if (match($0, /wl_callback[@#][0-9]+\.done/)) {
               s = substr($0, RSTART, RLENGTH); sub(/.*wl_callback[@#]/, "", s); sub(/\.done/, "", s)
               if (frame[s]) { n++; frame[s] = 0 } } }
         END { print n + 0 }' /tmp/egl.txt 2>/dev/null || echo 0
}
frames() { [ "$(shown)" -ge "$1" ]; }
count() { c=0; for p in $(pidof "$1"); do c=$((c + 1)); done; [ $c -ge "$2" ]; }

case "$mode" in
egl)
    # WAYLAND_DEBUG: simple-egl's protocol log; a frame callback (wl_surface.frame) done means
    # weston has put that frame on screen
    WESTON_CLIENTS='WAYLAND_DEBUG=client exec weston-simple-egl > /tmp/egl.txt 2>&1' weston &
    wait_for 600 frames 3 || echo "WESTON_FAIL: weston showed no 3 frames of weston-simple-egl"
    echo "weston-simple-egl frames shown: $(shown)"
    grep -E "GL renderer|GL version|EGL vendor|[Ee]rror|[Ff]ailed" /tmp/weston.log
    grep -v "^\[" /tmp/egl.txt
    pid=$(pidof weston-simple-egl)
    for fd in /proc/$pid/fd/*; do
        case "$(readlink "$fd")" in /dev/dri/*) ;; *) continue ;; esac
        echo "FDINFO $(readlink "$fd"):"
        grep -E "drm-driver|drm-engine|drm-cycles|drm-resident|drm-total" "/proc/$pid/fdinfo/${fd##*/}"
    done
    ;;
input)
    WESTON_CLIENTS='exec weston-terminal' weston &
    wait_for 600 count weston-terminal 1 || echo "WESTON_FAIL: no weston-terminal"
    # its window mapped and drawn: weston logs nothing for it, so give it time to draw
    sleep 5
    grep -E "input device|[Ee]rror|[Ff]ailed" /tmp/weston.log
    echo WESTON_READY
    if wait_for 900 test -s /tmp/typed; then
        echo "TYPED: $(cat /tmp/typed)"
    else
        echo "WESTON_FAIL: nothing typed into weston-terminal reached /tmp/typed"
    fi
    echo WESTON_CLICK
    if wait_for 900 count weston-simple-egl 1; then
        echo "CLICKED: weston-simple-egl started by the panel's launcher"
        sleep 10
    else
        echo "WESTON_FAIL: the click on the launcher started no weston-simple-egl"
    fi
    ;;
*)
    echo "weston_guest.sh: egl or input"; exit 2 ;;
esac
# the kernel's error-level lines (none expected; mxsfb, panel-simple and panfrost log theirs there)
dmesg -r | grep '^<[0-3]>' | sed 's/^/KERNEL_ERROR: /'
echo WESTON_DONE
