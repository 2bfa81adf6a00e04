# lib.mk -- builds the core (and the CUDA kernels) as libbatchsym.a outside
# R, for the C tests, the benchmarks and the Octave MEX files. Run from src/
# after ./configure: make -f lib.mk
include bsym-config.mk
include sources.mk

CC ?= cc
CFLAGS_CORE = -O3 -std=gnu11 -fPIC -fopenmp -Wall -Wextra $(BSYM_CPPFLAGS)

libbatchsym.a: $(CORE_OBJS) $(CUDA_OBJS)
	rm -f $@
	ar rcs $@ $^

core/%.o: core/%.c
	$(CC) $(CFLAGS_CORE) -c $< -o $@
