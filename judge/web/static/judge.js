// judge: small enhancements. Every page works without this file.
//  - results as you type in a search box marked data-live (the server renders them)
//  - the copy-citation button
//  - a glossary term's definition on tap (a hover already shows it as a tooltip)
//  - "/" focuses the search box
(function () {
  "use strict";

  // -- results as you type ---------------------------------------------------------
  function liveSearch(input) {
    var results = document.getElementById("results");
    var form = input.form;
    if (!results || !form) return;
    var timer = null, controller = null, last = input.value;

    function run() {
      var query = input.value;
      if (query === last) return;
      last = query;
      if (controller) controller.abort();
      if (!query.trim()) {
        results.innerHTML = "";
        return;
      }
      var params = new URLSearchParams(new FormData(form));
      var pageParams = new URLSearchParams(params);
      params.set("fragment", "1");
      controller = new AbortController();
      fetch(form.action + "?" + params.toString(), { signal: controller.signal, headers: { "Accept": "text/html" } })
        .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
        .then(function (html) {
          // Server-rendered and escaped: the same template as the full page.
          results.innerHTML = html;
          if (location.pathname === new URL(form.action).pathname) {
            history.replaceState(null, "", "?" + pageParams.toString());
          }
        })
        .catch(function () { /* a newer query replaced this one, or the server said no: keep the page */ });
    }

    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(run, 160);
    });
  }

  // -- copy citation -------------------------------------------------------------------
  function copyButton(button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      var text = button.getAttribute("data-copy");
      var done = function () {
        var label = button.textContent;
        button.textContent = "Copied";
        button.classList.add("copied");
        setTimeout(function () { button.textContent = label; button.classList.remove("copied"); }, 1500);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, function () { selectFallback(button, done); });
      } else {
        selectFallback(button, done);
      }
    });
  }

  function selectFallback(button, done) {
    // Plain http on a local network has no clipboard API: select the text instead.
    // The text to copy goes into a hidden field, selected and copied; failing that, the shown citation stays selected.
    var scratch = document.createElement("textarea");
    scratch.value = button.getAttribute("data-copy");
    scratch.setAttribute("readonly", "");
    scratch.className = "copy-scratch";
    document.body.appendChild(scratch);
    scratch.select();
    var copied = false;
    try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
    scratch.remove();
    if (copied) { done(); return; }
    var field = button.closest(".cite") && button.closest(".cite").querySelector(".cite-text");
    if (!field) return;
    var range = document.createRange();
    range.selectNodeContents(field);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);  // the text stays selected for the visitor to copy
  }

  // -- definitions on tap -------------------------------------------------------------------
  var popover = null;

  function closePopover() {
    if (popover) {
      popover.remove();
      popover = null;
    }
  }

  function openPopover(term) {
    closePopover();
    var definition = term.getAttribute("data-def") || term.getAttribute("title") || "";
    // The title tooltip would cover the popover on desktop: keep it in data-def instead.
    if (term.hasAttribute("title")) {
      term.setAttribute("data-def", definition);
      term.removeAttribute("title");
    }
    popover = document.createElement("div");
    popover.className = "popover";
    popover.setAttribute("role", "dialog");
    popover.setAttribute("aria-label", "Definition of " + term.textContent);
    var name = document.createElement("strong");
    name.textContent = term.textContent;
    var text = document.createElement("p");
    text.textContent = definition;
    var link = document.createElement("a");
    link.href = term.getAttribute("href");
    link.textContent = "Open the definition";
    popover.appendChild(name);
    popover.appendChild(text);
    popover.appendChild(link);
    document.body.appendChild(popover);
    var box = term.getBoundingClientRect();
    var width = popover.offsetWidth;
    var left = Math.max(8, Math.min(window.scrollX + box.left, window.scrollX + document.documentElement.clientWidth - width - 8));
    popover.style.left = left + "px";
    popover.style.top = (window.scrollY + box.bottom + 6) + "px";
    link.focus({ preventScroll: true });
  }

  document.addEventListener("click", function (event) {
    var term = event.target.closest && event.target.closest("a.term");
    if (term && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey) {
      event.preventDefault();
      openPopover(term);
      return;
    }
    if (popover && !popover.contains(event.target)) closePopover();
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
      closePopover();
      return;
    }
    var typing = /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName);
    if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey) {
      var box = document.querySelector("[data-hotkey]");
      if (box) {
        event.preventDefault();
        box.focus();
        box.select();
      }
    }
  });

  document.querySelectorAll("input[data-live]").forEach(liveSearch);
  document.querySelectorAll("button[data-copy]").forEach(copyButton);
  // Parts of a page replaced by a script (the builder's steps, builder.js) get their copy buttons too.
  window.judgeCopyButtons = function (root) {
    root.querySelectorAll("button[data-copy][hidden]").forEach(copyButton);
  };
})();
