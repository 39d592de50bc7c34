/* Host terminal backend for the guest console UART.
 *
 * Output: console_putc (a Pl011TxFn) writes each byte to out_fd at once.
 * Input: a reader thread reads in_fd and pushes the bytes into the UART through the rx callback,
 * waiting while the UART FIFO is full (nothing is dropped).  When in_fd is a terminal it is put
 * in raw mode (no echo, no line editing, no signals: Ctrl-C goes to the guest) and restored at
 * exit (atexit, and on SIGTERM/SIGHUP/SIGQUIT).
 *
 * Escape key Ctrl-A (like QEMU):  Ctrl-A x   quit the emulator (quit callback; default exit(0))
 *                                 Ctrl-A Ctrl-A   send one Ctrl-A to the guest
 *                                 Ctrl-A h   print this help
 * Ctrl-A followed by anything else sends both bytes. */
#ifndef MALIBU_DEVICES_CONSOLE_H
#define MALIBU_DEVICES_CONSOLE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct Console Console;
typedef int (*ConsoleRxFn)(void *opaque, const uint8_t *buf, int len); /* returns bytes taken */

Console *console_new(int in_fd, int out_fd);
void console_putc(void *console, uint8_t ch);
/* Start the reader thread delivering input to rx (call once, after the UART exists).
 * in_fd < 0 means no input. */
void console_start(Console *c, ConsoleRxFn rx, void *rx_opaque);
void console_set_quit(Console *c, void (*quit)(void *opaque), void *opaque);
/* Free the console unless its reader thread was started (that one lives until exit). */
void console_free(Console *c);
/* Put the terminal back (idempotent; also registered with atexit). */
void console_restore_terminal(void);

#endif
