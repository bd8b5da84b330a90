/* What 2.6.27's compiler.h gives the fixtures (sparse's __CHECKER__ side). */
#ifndef _LINUX_COMPILER_H
#define _LINUX_COMPILER_H
#define __force		__attribute__((force))
#define __bitwise	__attribute__((bitwise))
#define __acquires(x)	__attribute__((context(x, 0, 1)))
#define __releases(x)	__attribute__((context(x, 1, 0)))
#define __lockfunc
#endif
