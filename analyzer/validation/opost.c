/*
 * n_tty's opost() of 2.6.26: the error path for a full buffer returns
 * with the BKL still held (found once lockdep saw the BKL).  Plain
 * sparse says only "context imbalance in 'opost' - wrong count at exit".
 */
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);

struct tty_struct {
	int column, canon_column, flags;
};
extern int tty_write_room(struct tty_struct *tty);
extern void tty_put_char(struct tty_struct *tty, unsigned char c);
#define O_OPOST(tty)	((tty)->flags & 1)
#define O_ONLCR(tty)	((tty)->flags & 2)

static int opost(unsigned char c, struct tty_struct *tty)
{
	int space;

	space = tty_write_room(tty);
	if (!space)
		return -1;

	lock_kernel();
	if (O_OPOST(tty)) {
		switch (c) {
		case '\n':
			if (O_ONLCR(tty)) {
				if (space < 2)
					return -1;
				tty->canon_column = tty->column = 0;
				tty_put_char(tty, '\r');
				tty_put_char(tty, c);
				unlock_kernel();
				return 0;
			}
			tty->canon_column = tty->column;
			break;
		case '\t':
			tty->column = (tty->column | 7) + 1;
			break;
		}
	}
	tty_put_char(tty, c);
	unlock_kernel();
	return 0;
}

int n_tty_write(struct tty_struct *tty, const unsigned char *b, int nr)
{
	while (nr > 0 && opost(*b, tty) >= 0) {
		b++;
		nr--;
	}
	return nr;
}

/*
 * check-name: lock leaked on an error path (n_tty opost)
 * check-command: imbalance
 * check-output-start
 * opost.c:33: warning: return with the BKL held in 'opost' (return-held)
 * check-output-end
 */
