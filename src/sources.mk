# sources.mk -- the object lists and the CUDA compile rule, shared by
# src/Makevars (R's build) and the top-level Makefile (library, C tests,
# Octave). Paths are relative to src/.
CORE_OBJS = core/ctx.o core/dispatch.o core/cpu_backend.o core/ldlt.o core/householder.o core/pcr.o core/eigen.o core/strategy.o core/rules.o core/indef.o core/pde.o core/pde_rules.o core/hetrd.o
GLUE_OBJS = init.o r_glue.o r_solve.o r_lsfit.o r_tridiag.o r_eigen.o r_device.o r_rules.o r_pde.o
$(GLUE_OBJS): r_glue.h
NVCC_FLAGS = -O3 -std=c++17 --threads 0 $(NVCC_ARCH) -Xcompiler -fPIC -Xcompiler -fopenmp

cuda/%.o: cuda/%.cu cuda/common.cuh cuda/bsym_cuda.h cuda/prec.cuh core/batchsym.h core/backend.h core/prec.h bsym-config.mk
	$(NVCC) $(NVCC_FLAGS) -c $< -o $@

$(CORE_OBJS) $(GLUE_OBJS): core/batchsym.h core/backend.h core/internal.h core/prec.h core/prec_real.h bsym-config.mk
core/ldlt.o: core/cpu_simd.h core/ldlt_impl.h core/prec_double.h core/prec_float.h core/prec_end.h
core/householder.o: core/cpu_simd.h core/householder_impl.h core/reflector_impl.h core/pcr_impl.h core/prec_double.h core/prec_float.h core/prec_end.h
core/pcr.o: core/cpu_simd.h core/pcr_impl.h core/prec_double.h core/prec_float.h core/prec_end.h
core/eigen.o: core/eigen_lanes_impl.h core/reflector_impl.h core/cpu_simd.h core/eigen_impl.h core/tridiag_eig_impl.h core/prec_double.h core/prec_float.h core/prec_end.h
core/strategy.o: core/tridiag_eig_impl.h core/strategy_numerics.h core/strategy_impl.h core/prec_double.h core/prec_float.h core/prec_end.h
core/indef.o: core/bk_rule.h core/cpu_simd.h core/indef_impl.h core/indef_lanes_impl.h core/prec_double.h core/prec_float.h core/prec_cdouble.h core/prec_cfloat.h core/prec_end.h
core/rules.o: core/select_pack_impl.h core/prec_double.h core/prec_float.h core/prec_end.h
core/hetrd.o: core/hetrd_impl.h core/reflector_impl.h core/prec_cdouble.h core/prec_cfloat.h core/prec_end.h
core/cpu_backend.o: core/cpu_backend_impl.h core/prec_double.h core/prec_float.h core/prec_cdouble.h core/prec_cfloat.h core/prec_end.h
cuda/pcr.o cuda/householder.o cuda/householder_block.o cuda/pde.o: cuda/pcr.cuh
cuda/householder.o cuda/householder_block.o: cuda/householder.cuh
cuda/pde.o: core/internal.h
cuda/eigen.o: core/tridiag_eig_impl.h core/prec_double.h core/prec_float.h core/prec_end.h
cuda/eigen.o: cuda/eigen_numerics.cuh cuda/eigen_ql.cuh cuda/ql_iterate.h
cuda/strategy.o: cuda/eigen_numerics.cuh core/tridiag_eig_impl.h core/strategy_numerics.h core/prec_double.h core/prec_float.h core/prec_end.h
core/pde.o: core/cpu_simd.h core/pde_impl.h core/prec_double.h core/prec_float.h core/prec_mixed.h core/prec_end.h # issue 15
cuda/indef.o: core/bk_rule.h
cuda/ldlt.o cuda/ldlt_block.o: cuda/ldlt.cuh
cuda/device.o: cuda/host_pack.h
cuda/indef.o cuda/hetrd.o: cuda/team.cuh
cuda/hetrd.o: cuda/householder.cuh
