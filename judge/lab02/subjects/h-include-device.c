/* h-include-device.c - a file that makes the compiler read a device that
 * never ends: the compiler runs within limits (memory, CPU, output), is
 * stopped, and the report says why instead of hanging or eating the
 * machine's memory.
 * expect-exit: 1
 * expect: does not compile
 * expect: the compiler was stopped at its limits
 */
#include "/dev/zero"
