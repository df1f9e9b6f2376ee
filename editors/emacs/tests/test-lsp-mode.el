;;; test-lsp-mode.el --- `emend lsp' under lsp-mode, in batch mode  -*- lexical-binding: t -*-
;;
;; Run by scripts/test-emacs.sh (Debian's elpa-lsp-mode: lsp-mode 8.0 on Emacs 28):
;;   EMEND_CLI=/path/to/emend-cli emacs --batch -Q -l editors/emacs/tests/test-lsp-mode.el
;; with the README's client registration, the fixture provider only: diagnostics, the
;; preferred quick fix, a rewrite that does not block Emacs and lands (lsp-mode resolves
;; synchronously, so it is offered the emend.runTool command), one whose model never
;; finishes, and the server gone after the workspace's shutdown.

(require 'package)
(setq package-directory-list '("/usr/share/emacs/site-lisp/elpa"))
(package-initialize)
(require 'cl-lib)
(require 'flymake)
(defvar emend-cli (or (getenv "EMEND_CLI") (error "set EMEND_CLI to the emend command")))
(setq lsp-auto-guess-root t lsp-diagnostics-provider :flymake lsp-enable-snippet nil lsp-restart 'ignore
      lsp-session-file (make-temp-file "emend-lsp-session") lsp-keep-workspace-alive nil
      lsp-enable-file-watchers nil lsp-headerline-breadcrumb-enable nil)
(require 'lsp-mode)

;; The README's registration.
(add-to-list 'lsp-language-id-configuration '(text-mode . "plaintext"))
(lsp-register-client
 (make-lsp-client :new-connection (lsp-stdio-connection (list emend-cli "lsp"))
                  :activation-fn (lsp-activate-on "plaintext" "markdown" "org")
                  :add-on? t
                  :server-id 'emend))

(defvar emend-failures 0)
(defvar emend-passed 0)
(defvar emend-command-bound 0.5)

(defmacro emend-test (name &rest body)
  (declare (indent 1))
  `(condition-case err
       (progn ,@body
              (setq emend-passed (1+ emend-passed))
              (princ (format "ok   %s\n" ,name)))
     (error (setq emend-failures (1+ emend-failures))
            (princ (format "FAIL %s: %s\n" ,name (error-message-string err))))))

(defun emend-check (condition format-string &rest args)
  (unless condition (error "%s" (apply #'format format-string args))))

(defun emend-wait (pred what &optional seconds)
  "Waits for PRED, starting Flymake as an idle command loop would (no idle timers in batch)."
  (let ((deadline (+ (float-time) (or seconds 20))) (next 0))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (when (> (float-time) next) (ignore-errors (flymake-start)) (setq next (+ (float-time) 0.2)))
      (accept-process-output nil 0.02))
    (unless (funcall pred) (error "timed out waiting for %s" (if (functionp what) (funcall what) what)))))

(defun emend-diagnostic-texts ()
  (sort (mapcar (lambda (d) (buffer-substring-no-properties (flymake-diagnostic-beg d) (flymake-diagnostic-end d)))
                (flymake-diagnostics))
        #'string<))

(defvar emend-dir (file-name-as-directory (make-temp-file "emend-lsp-mode" t)))
(write-region "We meet tomorow and they could of come.\n\nIt is noon.\n" nil (concat emend-dir "notes.txt"))
(find-file (concat emend-dir "notes.txt"))
(lsp)

(emend-test "lsp-mode: diagnostics at the misspelling and the grammar error"
  (emend-wait (lambda () (= (length (flymake-diagnostics)) 2)) (lambda () (format "two diagnostics (now %S)" (emend-diagnostic-texts))))
  (emend-check (equal (emend-diagnostic-texts) '("could of" "tomorow")) "%S" (emend-diagnostic-texts)))

(emend-test "lsp-mode: the preferred quick fix edits the buffer"
  (goto-char (point-min))
  (search-forward "tomorow")
  (goto-char (match-beginning 0))
  (let ((preferred (cl-find-if #'lsp:code-action-is-preferred? (lsp-code-actions-at-point))))
    (emend-check preferred "no preferred fix")
    (lsp-execute-code-action preferred)
    (emend-check (equal (buffer-substring-no-properties 1 (line-end-position 1)) "We meet tomorrow and they could of come.")
                 "line 1: %S" (buffer-substring-no-properties 1 (line-end-position 1)))))

(emend-test "lsp-mode: a rewrite does not block Emacs and lands"
  (goto-char (point-min))
  (search-forward "It is noon.")
  (set-mark (match-beginning 0))
  (goto-char (match-end 0))
  (activate-mark)
  (let* ((friendly (cl-find "Rewrite: friendly" (lsp-code-actions-at-point) :key #'lsp:code-action-title :test #'equal))
         (start (float-time)))
    (emend-check friendly "no rewrite action")
    (lsp-execute-code-action friendly)
    (let ((blocked (- (float-time) start)))
      (princ (format "     lsp-mode was blocked %.1f ms\n" (* 1000 blocked)))
      (emend-check (< blocked emend-command-bound) "blocked %.3f s" blocked))
    ;; The fixture writes a word every 300 ms (EMEND_FIXTURE_CHUNK_DELAY_MS): still writing.
    (emend-check (string-match-p "^It is noon\\.$" (buffer-string)) "applied before the model finished: %S" (buffer-string))
    (deactivate-mark)
    (emend-wait (lambda () (string-match-p "^It's noon\\.$" (buffer-string)))
                (lambda () (format "the rewrite (buffer %S)" (buffer-string))))))

(emend-test "lsp-mode: a rewrite whose model never finishes does not block Emacs"
  ;; Last: the fixture's marker also holds the proofreading of that paragraph.
  (goto-char (point-max))
  (insert "\nPlease [fixture:hang] wait here.\n")
  (let* ((end (1- (point-max)))
         (beg (save-excursion (goto-char end) (line-beginning-position)))
         (before (buffer-string)))
    (set-mark beg)
    (goto-char end)
    (activate-mark)
    (let* ((concise (cl-find "Rewrite: concise" (lsp-code-actions-at-point) :key #'lsp:code-action-title :test #'equal))
           (start (float-time)))
      (emend-check (and concise (lsp:code-action-command? concise)) "lsp-mode is offered emend.runTool: %S" concise)
      (lsp-execute-code-action concise)
      (let ((blocked (- (float-time) start)))
        (princ (format "     lsp-mode was blocked %.1f ms (the model runs on)\n" (* 1000 blocked)))
        (emend-check (< blocked emend-command-bound) "blocked %.3f s" blocked)))
    (deactivate-mark)
    (accept-process-output nil 0.3)
    (emend-check (equal (buffer-string) before) "nothing applied while the model runs")))

(emend-test "lsp-mode: the server is gone after the workspace's shutdown"
  (let* ((workspace (car (lsp-workspaces)))
         (process (lsp--workspace-proc workspace)))
    (lsp-workspace-shutdown workspace)
    (emend-wait (lambda () (not (process-live-p process))) "the server to end" 10)))

(princ (format "%d passed, %d failed\n" emend-passed emend-failures))
(delete-directory emend-dir t)
(kill-emacs (if (> emend-failures 0) 1 0))
