// The scenario builder of /check, quicker: each step is sent in the background and the page's main part
// replaced by the answer (the same page the form would load), and choosing a kind of event shows its fields
// at once. Without this file every step is an ordinary form post.
(function () {
  "use strict";

  function send(form, submitter) {
    var data = new FormData(form);
    if (submitter && submitter.name) data.set(submitter.name, submitter.value);
    form.setAttribute("aria-busy", "true");
    fetch(form.action, { method: "POST", body: new URLSearchParams(data), headers: { "Accept": "text/html" } })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var next = new DOMParser().parseFromString(html, "text/html").querySelector("main");
        var main = document.querySelector("main");
        if (!next || !main) { form.removeAttribute("aria-busy"); return; }
        main.innerHTML = next.innerHTML;
        if (window.judgeCopyButtons) window.judgeCopyButtons(main);
        var builder = document.getElementById("builder");
        var invalid = markError(main);
        var focus = invalid || (document.getElementById("builder-error") ? null : pickFocus(submitter && submitter.value));
        if (builder) builder.scrollIntoView({ block: "start" });
        if (focus) focus.focus({ preventScroll: true });
      })
      .catch(function () { form.removeAttribute("aria-busy"); form.submit(); });
  }

  // The field a refused step names is marked and focused (the error says what is wrong with it).
  function markError(root) {
    var error = root.querySelector("#builder-error[data-field]");
    if (!error) return null;
    var field = root.querySelector('[name="' + error.getAttribute("data-field").replace(/"/g, "") + '"]');
    if (!field || field.type === "hidden") return null;
    field.setAttribute("aria-invalid", "true");
    field.setAttribute("aria-describedby", "builder-error");
    return field;
  }

  function pickFocus(step) {
    var ids = { add_player: "player", add_minion: "minion", choose_form: "event-fields", add_event: "event_form",
                add_sentence: "sentence", enter: "player" };
    var el = document.getElementById(ids[step] || "");
    if (el && el.id === "event-fields") el = el.querySelector("input");
    return el;
  }

  markError(document);

  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (form.id !== "builder" || !window.fetch || !window.URLSearchParams) return;
    e.preventDefault();
    send(form, e.submitter || null);
  });

  document.addEventListener("change", function (e) {
    if (e.target.id !== "event_form" || !e.target.form || !e.target.value) return;
    var button = document.getElementById("choose-form");
    if (e.target.form.requestSubmit && button) e.target.form.requestSubmit(button);
  });
})();
