# batchsym demo: a short version of the CVA experiment of the vignette
# "cva-regression" (Abbas-Turki & Graillat 2017, Sect. 2). Nested Monte
# Carlo for an American (Bermudan) put on the mean of 29 Black-Scholes assets;
# the Longstaff-Schwartz regressions of all outer paths at one (outer step,
# inner date) are one bsym_lsfit() call (X: 300 x 30 x outer paths).
# Compares single-precision LDL^T, the automatic method (truncated spectrum
# above condition number 1e5) in single and double, and base R's QR in double.
library(batchsym)
source(system.file("examples", "cva.R", package = "batchsym"))

M0 <- as.integer(Sys.getenv("BSYM_CVA_M0", "100"))    # outer paths (the vignette: 1000)
N <- as.integer(Sys.getenv("BSYM_CVA_N", "8"))        # dates t_k = 0.1 k (the vignette: 10)
cfg <- cva_params(M0 = M0, N = N, M = 300L, K = 1.05, kappa = TRUE)
cat(sprintf("batchsym CVA demo: %d outer paths x %d inner paths, %d dates, 29 assets, basis (1, S)\n",
            cfg$M0, cfg$M, cfg$N))
info <- bsym_device_info()
cat(sprintf("GPU: %s\n", if (info$gpu_available) info$name else paste("none -", info$reason)))

res <- cva_run(cfg, cva_variants(cfg, c("single ldlt", "single auto", "double auto", "double QR")))
tab <- cva_table(res)
kap <- unlist(lapply(res$kappa, `[[`, "kappa"))

cat(sprintf("\n%d regressions per variant, in %d batched calls; condition numbers of A_hat (base R, double):\n",
            as.integer(tab$regressions[1]), res$stats[[1]]$calls))
cat(sprintf("  median %.2g, max %.2g; above the cap 1e5: %d; above 1/eps of single (8.4e6): %d\n",
            median(kap), max(kap), sum(kap > 1e5), sum(kap > 2^23)))
cat("\nill-conditioned regressions found by each variant, and what came of them:\n")
for (i in seq_len(nrow(tab))) {
  s <- res$stats[[i]]
  cat(sprintf("  %-12s truncated spectrum: %5d (rank < 30: %5d)  failed: %d  fitted values vs double QR: median %s\n",
              tab$variant[i], as.integer(tab$eigen[i]), as.integer(tab$rank_lt_p[i]),
              as.integer(tab$failed[i]), if (length(s$fit_err)) sprintf("%.1e", median(s$fit_err)) else "(reference)"))
}
cat(sprintf("\ninner exercise decisions: %d, %d in the money; differing from double QR:\n",
            as.integer(res$stats[[1]]$decisions), as.integer(res$stats[[1]]$itm)))
for (i in seq_len(nrow(tab)))
  cat(sprintf("  %-12s %7d (%.3f %% of those in the money)\n", tab$variant[i],
              as.integer(res$stats[[i]]$differ), tab$differ_itm_pct[i]))
ref <- res$value$cva[["double QR"]]
cat(sprintf("\nCVA (standard error %.2g):\n", res$value$se[["double QR"]]))
for (v in names(res$value$cva))
  cat(sprintf("  %-12s %.6e  (minus double QR: %+.2e)\n", v, res$value$cva[[v]], res$value$cva[[v]] - ref))
cat(sprintf("\ntime in the fits (%d calls each), device %s:\n", res$stats[[1]]$calls,
            res$stats[["single ldlt"]]$device))
for (i in seq_len(nrow(tab)))
  cat(sprintf("  %-12s %.2f s%s\n", tab$variant[i], tab$fit_s[i],
              if (tab$variant[i] == "double QR") " (a base-R loop of .lm.fit)" else ""))
cat(sprintf("whole run: %.1f s (most of it simulating the inner paths in R)\n", res$elapsed))
