/* lab.h - what a lab's skeleton file needs from the harness.
 * LAB_TODO() marks the function it stands in as not started: the check of
 * that function is shown as pending, not failing. Delete the LAB_TODO() line
 * when you start writing the function. */
#ifndef LAB_H
#define LAB_H

/* lab_todo - mark fn as pending; never returns to its caller */
_Noreturn void lab_todo(const char *fn);

#define LAB_TODO() lab_todo(__func__)

#endif
