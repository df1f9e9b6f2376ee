;;; test-eglot.el --- `emend lsp' under Emacs's own eglot, in batch mode  -*- lexical-binding: t -*-
;;
;; Run by scripts/test-emacs.sh (Debian's emacs-nox and elpa-eglot: Emacs 28, eglot 1.9):
;;   EMEND_CLI=/path/to/emend-cli emacs --batch -Q -l editors/emacs/tests/test-eglot.el
;; with the fixture provider only (EMEND_PROVIDER_PATH="", private XDG directories). One server
;; entry for text-mode and python-mode, as users write it: diagnostics arrive at the right
;; place, the preferred quick fix edits the buffer, a Python file opened second is checked
;; as Python (eglot sends the first mode's languageId for every file), a rewrite command
;; returns at once and its edit lands later (also with a model that never finishes), and
;; shutdown + exit end the server with status 0.

(require 'package)
(setq package-directory-list '("/usr/share/emacs/site-lisp/elpa"))
(package-initialize)
(require 'eglot)
(require 'flymake)
(require 'cl-lib)

(defvar emend-cli (or (getenv "EMEND_CLI") (error "set EMEND_CLI to the emend command")))
(defvar emend-failures 0)
(defvar emend-passed 0)
;; A command blocks eglot (jsonrpc-request is synchronous) until the server answers; the
;; server answers at once, so this bound is far above what it takes and far below eglot's
;; 10 s time-out. The figure itself is printed.
(defvar emend-command-bound 0.5)

(defun emend-wait (pred what &optional seconds)
  (let ((deadline (+ (float-time) (or seconds 20))))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.02))
    (unless (funcall pred) (error "timed out waiting for %s" (if (functionp what) (funcall what) what)))))

(defun emend-wait-diagnostics (pred what)
  "Like `emend-wait' for Flymake's diagnostics. eglot sends didChange and Flymake starts a
check from idle timers, which do not run in batch mode: both are done here as an idle
command loop would, every 0.2 s (eglot's backend reports the server's latest diagnostics)."
  (let ((next 0))
    (emend-wait (lambda ()
                  (when (> (float-time) next)
                    (eglot--signal-textDocument/didChange)
                    (flymake-start)
                    (setq next (+ (float-time) 0.2)))
                  (funcall pred))
                what)))

(defun emend-check (condition format-string &rest args)
  (unless condition (error "%s" (apply #'format format-string args))))

(defmacro emend-test (name &rest body)
  (declare (indent 1))
  `(condition-case err
       (progn ,@body
              (setq emend-passed (1+ emend-passed))
              (princ (format "ok   %s\n" ,name)))
     (error (setq emend-failures (1+ emend-failures))
            (princ (format "FAIL %s: %s\n" ,name (error-message-string err))))))

(defun emend-diagnostic-texts ()
  "The text each Flymake diagnostic of the buffer covers, in buffer order."
  (mapcar (lambda (d) (buffer-substring-no-properties (flymake-diagnostic-beg d) (flymake-diagnostic-end d)))
          (sort (flymake-diagnostics) (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b))))))

(defun emend-action (kind title beg end)
  "The code action of KIND titled TITLE over BEG..END."
  (cl-find title (eglot-code-actions beg end kind) :key (lambda (a) (plist-get a :title)) :test #'equal))

(defun emend-run-action (action kind)
  "Runs ACTION as eglot's menu would; returns the seconds eglot was blocked."
  (let ((start (float-time)))
    (eglot--read-execute-code-action (list action) (eglot-current-server) kind)
    (- (float-time) start)))

(setq eglot-confirm-server-initiated-edits nil   ; workspace/applyEdit without a y/n prompt
      eglot-sync-connect t
      eglot-autoshutdown nil)
(add-to-list 'eglot-server-programs `((text-mode python-mode) . (,emend-cli "lsp")))

(defvar emend-dir (file-name-as-directory (make-temp-file "emend-eglot" t)))
(write-region "We meet tomorow and they could of come.\n\nIt is noon.\n" nil (concat emend-dir "notes.txt"))
(write-region "def teh():\n    return 1  # see you tomorow\n" nil (concat emend-dir "tool.py"))

(find-file (concat emend-dir "notes.txt"))
(apply #'eglot (eglot--guess-contact))
(defvar emend-notes (current-buffer))
(defvar emend-server (eglot-current-server))

(emend-test "eglot: diagnostics at the misspelling and the grammar error"
  (emend-check emend-server "no server")
  (emend-wait-diagnostics (lambda () (>= (length (flymake-diagnostics)) 2)) "two diagnostics")
  (emend-check (equal (emend-diagnostic-texts) '("tomorow" "could of")) "diagnostics cover %S" (emend-diagnostic-texts)))

(emend-test "eglot: the preferred quick fix edits the buffer"
  (let* ((d (cl-find "tomorow" (flymake-diagnostics) :test #'equal
                     :key (lambda (d) (buffer-substring-no-properties (flymake-diagnostic-beg d) (flymake-diagnostic-end d)))))
         (actions (eglot-code-actions (flymake-diagnostic-beg d) (flymake-diagnostic-end d) "quickfix"))
         (preferred (cl-find-if (lambda (a) (plist-get a :isPreferred)) actions)))
    (emend-check preferred "no preferred fix among %S" (mapcar (lambda (a) (plist-get a :title)) actions))
    (emend-run-action preferred "quickfix")
    (emend-check (equal (buffer-substring-no-properties 1 (line-end-position 1)) "We meet tomorrow and they could of come.")
                 "line 1 is %S" (buffer-substring-no-properties 1 (line-end-position 1)))
    (emend-wait-diagnostics (lambda () (equal (emend-diagnostic-texts) '("could of")))
                (lambda () (format "the fixed word's diagnostic to go (now %S)" (emend-diagnostic-texts))))))

(emend-test "eglot: a rewrite returns at once and its edit lands later"
  (goto-char (point-min))
  (search-forward "It is noon.")
  (let* ((action (emend-action "refactor.rewrite" "Rewrite: friendly" (match-beginning 0) (match-end 0)))
         (blocked (progn (emend-check (plist-get action :command) "eglot 1.9 gets a command (no resolve): %S" action)
                         (emend-run-action action "refactor.rewrite"))))
    (princ (format "     eglot was blocked %.1f ms by emend.runTool\n" (* 1000 blocked)))
    (emend-check (< blocked emend-command-bound) "blocked %.3f s" blocked)
    ;; The fixture writes a word every 300 ms (EMEND_FIXTURE_CHUNK_DELAY_MS): still writing.
    (emend-check (string-match-p "^It is noon\\.$" (buffer-string)) "applied before the model finished: %S" (buffer-string))
    (emend-wait (lambda () (string-match-p "^It's noon\\.$" (buffer-string)))
                (lambda () (format "the rewrite to land (the buffer: %S)" (buffer-string))))
    (emend-check (string-match-p "^It's noon\\.$" (buffer-string)) "the buffer: %S" (buffer-string))))

(emend-test "eglot: a Python file opened second is checked as Python"
  (find-file (concat emend-dir "tool.py"))
  (emend-check (eq (eglot-current-server) emend-server) "the same server manages it")
  (emend-wait-diagnostics (lambda () (flymake-diagnostics))
              (lambda () (format "diagnostics in tool.py (managed: %S, flymake: %S); the server's last words: %s"
                                 eglot--managed-mode flymake-mode
                                 (with-current-buffer (jsonrpc-events-buffer emend-server)
                                   (buffer-substring-no-properties (max 1 (- (point-max) 3000)) (point-max))))))
  (emend-check (equal (emend-diagnostic-texts) '("tomorow")) "only the comment: %S" (emend-diagnostic-texts)))

(emend-test "eglot: a rewrite whose model never finishes does not block Emacs"
  ;; Last but one: the fixture's marker also holds the proofreading of that paragraph.
  (switch-to-buffer emend-notes)
  (goto-char (point-max))
  (insert "\nPlease [fixture:hang] wait here.\n")
  (let* ((end (1- (point-max)))
         (beg (save-excursion (goto-char end) (line-beginning-position)))
         (before (buffer-string))
         (action (emend-action "refactor.rewrite" "Rewrite: concise" beg end))
         (blocked (emend-run-action action "refactor.rewrite")))
    (princ (format "     eglot was blocked %.1f ms by emend.runTool (the model runs on)\n" (* 1000 blocked)))
    (emend-check (< blocked emend-command-bound) "blocked %.3f s" blocked)
    (accept-process-output nil 0.3)
    (emend-check (equal (buffer-string) before) "nothing applied while the model runs")))

(emend-test "eglot: shutdown and exit end the server with status 0"
  (let ((process (jsonrpc--process emend-server)))
    (setf (eglot--shutdown-requested emend-server) t)
    (jsonrpc-request emend-server :shutdown nil :timeout 5)
    (jsonrpc-notify emend-server :exit nil)
    (emend-wait (lambda () (not (process-live-p process))) "the server to exit" 10)
    (emend-check (eq (process-status process) 'exit) "status %S" (process-status process))
    (emend-check (= (process-exit-status process) 0) "exit status %d" (process-exit-status process))))

(when (getenv "EMEND_EGLOT_EVENTS")
  (with-current-buffer (jsonrpc-events-buffer emend-server)
    (write-region (point-min) (point-max) (getenv "EMEND_EGLOT_EVENTS"))))
(princ (format "%d passed, %d failed\n" emend-passed emend-failures))
(delete-directory emend-dir t)
(kill-emacs (if (> emend-failures 0) 1 0))
