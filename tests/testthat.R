library(testthat)
library(batchsym)
test_check("batchsym")
