# The blog tutorial "Performance measures for multi-class problems", its R examples run as printed.
#
# Usage: Rscript tutorial.R OUTDIR SAMPLE_KIND
#   SAMPLE_KIND: "Rejection" (R >= 3.6, the default sampler) or "Rounding" (the sampler of R < 3.6).
#
# Writes into OUTDIR (read by paper_checks/tutorial_r.py):
#   iris_test.csv   the test split: row (in R's iris), species, the posteriors of the three-class
#                   model, and the posterior of TRUE of the three one-vs-all models;
#   values.csv      name,value: what the tutorial's own code prints for iris (Hand & Till's M,
#                   its pairwise AUCs, the mean one-vs-all ROC AUC), the R version and sampler;
# and, after loading pROC (so the files above are written without it):
#   proc_values.csv name,value: pROC's multi-class AUC, its warnings and pROC's version;
#   asah.csv        pROC's aSAH data, the two columns the tutorial uses (gos6, s100b), and
#   asah_pairs.csv  pROC's AUC of each pair of gos6 levels, with the direction it chose.
#
# klaR is not packaged for Debian. naive_bayes() is klaR's NaiveBayes with its defaults, written
# from klaR's documentation: priors are the training class frequencies (prior = missing); each
# feature has a normal density per class with the class mean and the sample standard deviation
# (usekernel = FALSE, fL = 0); predict() multiplies the densities with the prior, replacing a
# density within eps = 0 of 0 by threshold = 0.001, and normalises the posterior to sum to 1.
# ROCR is replaced by the Mann-Whitney form of the ROC AUC it computes (ties count 1/2).

args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 2) stop("usage: Rscript tutorial.R OUTDIR SAMPLE_KIND")
outdir <- args[1]
sample_kind <- args[2]

naive_bayes <- function(x, grouping) {
    grouping <- as.factor(grouping)
    list(
        levels = levels(grouping),
        prior = as.vector(table(grouping)) / length(grouping),
        mean = sapply(x, function(v) tapply(v, grouping, mean)),
        sd = sapply(x, function(v) tapply(v, grouping, sd))
    )
}

predict_naive_bayes <- function(model, newdata, threshold = 0.001, eps = 0) {
    K <- length(model$levels)
    posterior <- sapply(seq_len(K), function(k) {
        dens <- mapply(
            function(v, m, s) dnorm(v, m, s), newdata, model$mean[k, ], model$sd[k, ]
        )
        dens <- matrix(dens, nrow = nrow(newdata))
        dens[dens <= eps] <- threshold
        model$prior[k] * apply(dens, 1, prod)
    })
    posterior <- matrix(posterior, nrow = nrow(newdata))
    posterior <- posterior / rowSums(posterior)
    colnames(posterior) <- model$levels
    posterior
}

roc_auc <- function(score, positive) {
    r <- rank(score)
    n1 <- sum(positive)
    n0 <- sum(!positive)
    (sum(r[positive]) - n1 * (n1 + 1) / 2) / (n1 * n0)
}

# --- The tutorial's code, as printed ("Implementation of the AUC generalization ...") ---------
compute.A.conditional <- function(pred.matrix, i, j, ref.outcome) {
    i.idx <- which(ref.outcome == i)
    j.idx <- which(ref.outcome == j)
    pred.i <- pred.matrix[i.idx, i]
    pred.j <- pred.matrix[j.idx, i]
    all.preds <- c(pred.i, pred.j)
    classes <- c(rep(i, length(pred.i)), rep(j, length(pred.j)))
    o <- order(all.preds)
    classes.o <- classes[o]
    Si <- sum(which(classes.o == i))
    ni <- length(i.idx)
    nj <- length(j.idx)
    A <- (Si - ((ni * (ni + 1))/2)) / (ni * nj)
    return(A)
}

multiclass.auc <- function(pred.matrix, ref.outcome) {
    labels <- colnames(pred.matrix)
    A.ij.cond <- utils::combn(labels, 2, function(x, pred.matrix, ref.outcome) {
        i <- x[1]
        j <- x[2]
        A.ij <- compute.A.conditional(pred.matrix, i, j, ref.outcome)
        A.ji <- compute.A.conditional(pred.matrix, j, i, ref.outcome)
        return(c(A.ij, A.ji))
    }, simplify = FALSE, pred.matrix = pred.matrix, ref.outcome = ref.outcome)
    c <- length(labels)
    pairs <- unlist(lapply(combn(labels, 2, simplify = FALSE), function(x) paste(x, collapse = "/")))
    A.mean <- unlist(lapply(A.ij.cond, mean))
    names(A.mean) <- pairs
    M <- 2 / (c * (c-1)) * sum(unlist(A.mean))
    attr(M, "pair_AUCs") <- A.mean
    return(M)
}

# --- The split and the models ("One-vs-all precision-recall curves") -------------------------
data(iris)
response <- iris$Species
suppressWarnings(set.seed(12345, sample.kind = sample_kind))
train.idx <- sample(seq_len(nrow(iris)), 0.6 * nrow(iris))
iris.train <- iris[train.idx, ]
iris.test <- iris[-train.idx, ]

one_vs_all <- sapply(levels(response), function(cur.class) {
    binary.labels <- as.factor(iris.train$Species == cur.class)
    model <- naive_bayes(iris.train[, -5], binary.labels)
    predict_naive_bayes(model, iris.test[, -5])[, "TRUE"]
})
aucs <- sapply(levels(response), function(cur.class) {
    roc_auc(one_vs_all[, cur.class], iris.test$Species == cur.class)
})

model <- naive_bayes(iris.train[, -5], iris.train$Species)
pred.matrix <- predict_naive_bayes(model, iris.test[, -5])
M <- multiclass.auc(pred.matrix, iris.test$Species)

test <- data.frame(
    row = setdiff(seq_len(nrow(iris)), train.idx),
    species = as.character(iris.test$Species),
    pred.matrix,
    setNames(as.data.frame(one_vs_all), paste0("ova_", levels(response))),
    check.names = FALSE
)
write.csv(test, file.path(outdir, "iris_test.csv"), row.names = FALSE)

pair_aucs <- attr(M, "pair_AUCs")
write.csv(
    data.frame(
        name = c(
            "hand_till_m", paste0("pair_auc:", names(pair_aucs)), "mean_one_vs_all_auc",
            "r_version", "sample_kind"
        ),
        value = c(
            format(as.numeric(M), digits = 17), format(pair_aucs, digits = 17),
            format(mean(aucs), digits = 17), R.version.string, sample_kind
        )
    ),
    file.path(outdir, "values.csv"), row.names = FALSE
)

# --- pROC ("Generalized AUC for a single decision value") -------------------------------------
suppressPackageStartupMessages(library(pROC))
data(aSAH)
proc_warnings <- character(0)
proc <- withCallingHandlers(
    multiclass.roc(aSAH$gos6, aSAH$s100b, quiet = TRUE),
    warning = function(w) {
        proc_warnings <<- c(proc_warnings, conditionMessage(w))
        invokeRestart("muffleWarning")
    }
)
write.csv(
    data.frame(gos6 = as.character(aSAH$gos6), s100b = aSAH$s100b),
    file.path(outdir, "asah.csv"), row.names = FALSE
)
write.csv(
    data.frame(
        pair = sapply(proc$rocs, function(r) paste(r$levels, collapse = "/")),
        auc = sapply(proc$rocs, function(r) as.numeric(auc(r))),
        direction = sapply(proc$rocs, function(r) r$direction)
    ),
    file.path(outdir, "asah_pairs.csv"), row.names = FALSE
)

write.csv(
    data.frame(
        name = c("proc_multiclass_auc", "proc_warnings", "proc_version"),
        value = c(
            format(as.numeric(proc$auc), digits = 17), paste(proc_warnings, collapse = "; "),
            as.character(packageVersion("pROC"))
        )
    ),
    file.path(outdir, "proc_values.csv"), row.names = FALSE
)
