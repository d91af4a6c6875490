// Arbiter chat page. Plain JS, no build step, nothing fetched from outside this origin.
// Answer data is always written with textContent (never innerHTML): rules text and
// questions are data, and must never become markup.
"use strict";

(() => {
  const VERDICTS = {
    yes: { label: "Yes", cls: "badge-yes" },
    no: { label: "No", cls: "badge-no" },
    unknown: { label: "Can't rule", cls: "badge-unknown" },
  };

  const state = {
    conversationId: null,
    games: [],            // from GET /v1/games
    docGame: new Map(),   // document id -> game id (a citation names its doc, the rules API wants a game)
    docTitle: new Map(),  // document id -> title
    docNumbered: new Map(), // document id -> false for documents cited by anchors (p3, target.2)
    busy: false,
  };

  const $ = (sel, root = document) => root.querySelector(sel);

  const el = (tag, props = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [key, val] of Object.entries(props)) {
      if (val === undefined || val === null) continue;
      if (key === "text") node.textContent = String(val);
      else if (key === "class") node.className = val;
      else if (key === "dataset") Object.assign(node.dataset, val);
      else node.setAttribute(key, String(val));
    }
    for (const child of children) {
      if (child !== null && child !== undefined) node.append(child);
    }
    return node;
  };

  // ---------------------------------------------------------------- API

  class ApiError extends Error {
    constructor(message, status, extra = {}) {
      super(message);
      this.status = status;
      Object.assign(this, extra);
    }
  }

  // Turn FastAPI's {"detail": ...} (string, {message, games} or a pydantic error list) into prose.
  function describeDetail(detail) {
    if (detail === undefined || detail === null) return "";
    if (typeof detail === "string") return detail;
    if (Array.isArray(detail)) {
      return detail
        .map((d) => {
          if (typeof d === "string") return d;
          const where = Array.isArray(d.loc) ? d.loc.filter((p) => p !== "body").join(".") : "";
          return where ? `${where}: ${d.msg}` : d.msg || JSON.stringify(d);
        })
        .join("; ");
    }
    if (typeof detail === "object") {
      let msg = detail.message || detail.msg || "";
      if (Array.isArray(detail.games) && detail.games.length) {
        msg += `${msg ? " " : ""}Loaded games: ${detail.games.join(", ")}.`;
      }
      return msg || JSON.stringify(detail);
    }
    return String(detail);
  }

  async function api(path, options = {}) {
    const init = { headers: { Accept: "application/json" }, ...options };
    if (options.json !== undefined) {
      init.method = init.method || "POST";
      init.headers = { ...init.headers, "Content-Type": "application/json" };
      init.body = JSON.stringify(options.json);
      delete init.json;
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (err) {
      throw new ApiError("Could not reach the Arbiter server. Check that it is running.", 0);
    }
    let body = null;
    try {
      body = await response.json();
    } catch (err) {
      body = null;
    }
    if (response.ok) return body;

    const detail = describeDetail(body && body.detail);
    const status = response.status;
    if (status === 429) {
      const retry = response.headers.get("Retry-After");
      const wait = retry ? ` Try again in ${retry} second${retry === "1" ? "" : "s"}.` : " Try again shortly.";
      throw new ApiError(`Too many requests.${wait}`, status, { retryAfter: retry });
    }
    if (status === 404) throw new ApiError(detail || "Not found.", status, { detail: body && body.detail });
    if (status === 413) throw new ApiError(detail || "The request is too large.", status);
    if (status === 503) {
      const retry = response.headers.get("Retry-After");
      const wait = retry ? ` Try again in ${retry} second${retry === "1" ? "" : "s"}.` : " Try again shortly.";
      throw new ApiError(`The rules are unavailable right now.${wait}`, status, { retryAfter: retry });
    }
    if (status === 422 || status === 400) {
      throw new ApiError(detail ? `The question was not accepted: ${detail}` : "The question was not accepted.", status);
    }
    throw new ApiError(detail || `The server answered with an error (HTTP ${status}).`, status);
  }

  // ---------------------------------------------------------------- errors and status

  // The error box sits in the sticky question form, so it is on screen however long the
  // thread is.
  function showError(message) {
    const box = $('[data-testid="error"]');
    box.textContent = message;
    box.hidden = !message;
    if (message) box.scrollIntoView({ block: "nearest" });
  }

  function setBusy(busy) {
    state.busy = busy;
    const button = $('[data-testid="ask"]');
    button.disabled = busy;
    button.textContent = busy ? "Asking\u2026" : "Ask";
    $('[data-testid="thread"]').setAttribute("aria-busy", busy ? "true" : "false");
  }

  function setConversation(id) {
    state.conversationId = id || null;
    const box = $('[data-testid="conversation"]');
    const code = $('[data-testid="conversation-id"]');
    code.textContent = id || "";
    code.title = id || "";
    box.hidden = !id;
    box.dataset.conversationId = id || "";
  }

  // ---------------------------------------------------------------- games

  async function loadGames() {
    const select = $('[data-testid="game"]');
    try {
      const data = await api("/v1/games");
      state.games = (data && data.games) || [];
    } catch (err) {
      showError(`Could not load the list of games: ${err.message}`);
      return;
    }
    for (const game of state.games) {
      for (const doc of game.documents || []) {
        state.docGame.set(doc.id, game.id);
        if (doc.title) state.docTitle.set(doc.id, doc.title);
        state.docNumbered.set(doc.id, doc.numbered !== false);
      }
      select.append(el("option", { value: game.id, text: game.name ? `${game.name}` : game.id }));
    }
    select.dataset.loaded = "true";
  }

  // ---------------------------------------------------------------- rendering

  function ordinal(n) {
    const teen = n % 100 >= 11 && n % 100 <= 13;
    const suffix = teen ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
    return `${n}${suffix}`;
  }

  // What players read for a rule id (docs/anchors.md): printed numbers stay as they are;
  // anchors of unnumbered documents become words: "p3" -> "¶3", "target" -> "Target",
  // "target.2" -> "Target, 2nd paragraph", "target.2.1" -> "Target, 2nd paragraph, 1st point".
  function ruleLabel(doc, rule) {
    const id = String(rule || "");
    if (state.docNumbered.get(doc) !== false && /^\d/.test(id)) return id;
    const para = /^p(\d+)$/.exec(id);
    if (para) return `\u00b6${para[1]}`;
    const parts = id.split(".");
    const slug = parts.shift();
    if (!slug || !/^[a-z][a-z0-9-]*$/.test(slug) || !parts.every((p) => /^\d+$/.test(p))) return id;
    const name = slug.replace(/-/g, " ").replace(/^\w/, (c) => c.toUpperCase());
    const levels = ["paragraph", "point", "sub-point"];
    const where = parts.map((p, i) => `${ordinal(Number(p))} ${levels[Math.min(i, levels.length - 1)]}`);
    return [name, ...where].join(", ");
  }

  function renderCitation(citation, answer) {
    const item = el("li", { class: "citation", dataset: { testid: "citation", doc: citation.doc, rule: citation.rule } });
    const docTitle = state.docTitle.get(citation.doc) || citation.doc;
    const toggle = el(
      "button",
      { type: "button", class: "citation-toggle", "aria-expanded": "false", dataset: { testid: "citation-toggle" } },
      el("span", { class: "rule-number", text: ruleLabel(citation.doc, citation.rule), title: citation.rule }),
      el("span", { class: "citation-doc", text: docTitle }),
    );
    const quote = el("blockquote", { class: "citation-quote", text: citation.quote || "" });
    const panel = el("div", { class: "rule-panel", dataset: { testid: "rule-panel" }, hidden: "" });
    const panelId = `rule-${Math.random().toString(36).slice(2, 10)}`;
    panel.id = panelId;
    toggle.setAttribute("aria-controls", panelId);
    toggle.addEventListener("click", () => toggleRule(toggle, panel, citation, answer));
    item.append(toggle, quote, panel);
    return item;
  }

  async function toggleRule(toggle, panel, citation, answer) {
    const open = toggle.getAttribute("aria-expanded") === "true";
    if (open) {
      toggle.setAttribute("aria-expanded", "false");
      panel.hidden = true;
      return;
    }
    toggle.setAttribute("aria-expanded", "true");
    panel.hidden = false;
    if (panel.dataset.loaded === "true") return;

    panel.replaceChildren(el("p", { class: "muted", text: "Loading the rule\u2026" }));
    const game = state.docGame.get(citation.doc) || answer.game;
    if (!game) {
      panel.replaceChildren(el("p", { class: "rule-error", text: `Unknown document ${citation.doc}.` }));
      return;
    }
    const path =
      `/v1/rules/${encodeURIComponent(game)}/${encodeURIComponent(citation.rule)}` +
      `?doc=${encodeURIComponent(citation.doc)}`;
    try {
      const data = await api(path);
      renderRule(panel, data, citation);
      panel.dataset.loaded = "true";
    } catch (err) {
      panel.replaceChildren(el("p", { class: "rule-error", text: `Could not load rule ${citation.rule}: ${err.message}` }));
    }
  }

  function renderRule(panel, data, citation) {
    const rule = (data && data.rule) || {};
    const nodes = [];
    // Unnumbered passages get their first words as heading: don't repeat them above the text.
    const stem = (rule.heading || "").replace(/(\u2026|\.\.\.)$/, "").trim();
    const heading = stem && !(rule.text || "").startsWith(stem) ? rule.heading : "";
    const label = ruleLabel(rule.doc || citation.doc, rule.number || citation.rule);
    const title = [label, heading].filter(Boolean).join(" \u2014 ");
    nodes.push(el("h4", { class: "rule-title", text: title }));
    const meta = [rule.title || state.docTitle.get(rule.doc || citation.doc), rule.version].filter(Boolean).join(", ");
    if (meta) nodes.push(el("p", { class: "rule-meta muted", text: meta }));
    if (Array.isArray(rule.parents) && rule.parents.length) {
      const under = rule.parents.map((p) => ruleLabel(rule.doc || citation.doc, p));
      nodes.push(el("p", { class: "rule-parents muted", text: `Under ${under.join(" \u203a ")}` }));
    }
    nodes.push(el("div", { class: "rule-text", dataset: { testid: "rule-text" }, text: rule.text || "" }));
    const children = (data && data.children) || [];
    if (children.length) {
      const list = el("ol", { class: "rule-children" });
      for (const child of children) {
        list.append(
          el("li", {}, el("span", { class: "rule-number", text: ruleLabel(child.doc, child.number || "") }), " ", el("span", { text: child.text || "" })),
        );
      }
      nodes.push(el("details", { class: "rule-children-wrap" }, el("summary", { text: `Subrules (${children.length})` }), list));
    }
    const editions = (data && data.editions) || [];
    if (editions.length > 1) {
      const names = editions
        .map((e) => (typeof e === "string" ? e : [e.version, e.doc].filter(Boolean).join(" ")))
        .filter(Boolean);
      if (names.length) nodes.push(el("p", { class: "rule-editions muted", text: `Editions: ${names.join(", ")}` }));
    }
    panel.replaceChildren(...nodes);
  }

  function gameName(id) {
    const game = state.games.find((g) => g.id === id);
    return (game && game.name) || id;
  }

  function renderAnswer(answer, questionText) {
    const tpl = $("#answer-template");
    const node = tpl.content.firstElementChild.cloneNode(true);
    const card = $('[data-testid="answer"]', node);
    const verdictKey = VERDICTS[answer.verdict] ? answer.verdict : "unknown";
    const verdict = VERDICTS[verdictKey];

    node.dataset.answerId = answer.answer_id || "";
    card.dataset.answerId = answer.answer_id || "";
    card.dataset.conversationId = answer.conversation_id || "";
    $('[data-testid="question-text"]', node).textContent = questionText || answer.question || "";

    const badge = $('[data-testid="verdict"]', node);
    badge.textContent = verdict.label;
    badge.classList.add(verdict.cls);
    badge.dataset.verdict = verdictKey;
    card.dataset.verdict = verdictKey;

    if (answer.value !== null && answer.value !== undefined) {
      const value = $('[data-testid="value"]', node);
      value.textContent = `Value: ${answer.value}`;
      value.hidden = false;
    }
    if (answer.game) {
      const tag = $('[data-testid="answer-game"]', node);
      tag.textContent = gameName(answer.game);
      tag.hidden = false;
    }
    $('[data-testid="answer-text"]', node).textContent = answer.answer || "";
    // A "can't rule" is an answer, not a failure: its reason is a quiet note (and left out
    // when the answer already says it); only other errors are shown as errors.
    if (answer.error) {
      const err = $('[data-testid="answer-error"]', node);
      const said = (answer.answer || "").includes(answer.error);
      if (!(verdictKey === "unknown" && said)) {
        err.textContent = verdictKey === "unknown" ? `Why: ${answer.error}` : answer.error;
        err.classList.toggle("answer-note", verdictKey === "unknown");
        err.hidden = false;
      }
    }

    renderClarify(node, answer);
    renderJudge(node, answer);

    const citations = answer.citations || [];
    if (citations.length) {
      const section = $('[data-testid="citations"]', node);
      // An abstention rests on no rule: what it lists are the closest rules found.
      $("h3", section).textContent = verdictKey === "unknown" ? "Closest rules" : "Citations";
      const list = $(".citation-list", section);
      for (const c of citations) list.append(renderCitation(c, answer));
      section.hidden = false;
    }

    const trace = answer.trace || [];
    if (trace.length) {
      const details = $('[data-testid="steps"]', node);
      const list = $(".step-list", details);
      for (const step of trace) {
        list.append(
          el(
            "li",
            { class: "step" },
            el("span", { class: "rule-number", text: step.rule || "" }),
            " ",
            el("span", { class: "step-text", text: step.step || "" }),
            step.result ? el("span", { class: "step-result", text: ` \u2192 ${step.result}` }) : null,
          ),
        );
      }
      $("summary", details).textContent = `Engine steps (${trace.length})`;
      details.hidden = false;
    }

    const passages = answer.passages || [];
    if (passages.length) {
      const details = $('[data-testid="passages"]', node);
      const list = $(".passage-list", details);
      for (const p of passages) {
        const title = `${ruleLabel(p.doc, p.rule)} \u00b7 ${state.docTitle.get(p.doc) || p.doc}`;
        list.append(el("li", {}, el("span", { class: "rule-number", text: title }), el("p", { text: p.text || "" })));
      }
      details.hidden = false;
    }

    wireFeedback(node, answer);
    wireCopyLink(node, answer);
    return node;
  }

  // One decision between an abstention and a ruling: each option is a complete request the
  // server has checked rules; choosing it asks it in this conversation.
  function renderClarify(node, answer) {
    const clarify = answer.clarify;
    if (!clarify || !Array.isArray(clarify.options) || !clarify.options.length) return;
    const section = $('[data-testid="clarify"]', node);
    const prompt = $('[data-testid="clarify-prompt"]', section);
    const group = $('[data-testid="clarify-options"]', section);
    const promptId = `clarify-${Math.random().toString(36).slice(2, 10)}`;
    prompt.id = promptId;
    prompt.textContent = clarify.prompt || "Did you mean:";
    group.setAttribute("aria-labelledby", promptId);
    for (const option of clarify.options) {
      const ask_ = option.ask || {};
      const button = el("button", {
        type: "button",
        class: "clarify-option",
        "aria-pressed": "false",
        dataset: { testid: "clarify-option", game: ask_.game || "" },
        text: option.label,
      });
      button.addEventListener("click", async () => {
        if (state.busy) return;
        for (const b of group.querySelectorAll("button")) b.setAttribute("aria-pressed", b === button ? "true" : "false");
        await ask(ask_.question || answer.question, ask_.game || null);
      });
      group.append(button);
    }
    section.hidden = false;
  }

  // ---------------------------------------------------------------- judge view
  // "What I understood": the scenario the engine checked, as a form generated from the
  // engine's JSON schema (GET /v1/scenario-schema); "Check" posts it to /v1/check.

  let schemaPromise = null;
  function scenarioSchema() {
    if (!schemaPromise) schemaPromise = api("/v1/scenario-schema").catch((err) => { schemaPromise = null; throw err; });
    return schemaPromise;
  }

  function resolve(root, schema) {
    let s = schema || {};
    while (s.$ref) s = root.$defs[s.$ref.split("/").pop()] || {};
    return s;
  }

  function branches(root, schema) {
    const list = schema.anyOf || schema.oneOf;
    return list ? list.map((b) => resolve(root, b)) : null;
  }

  function defaultFor(root, schema) {
    const s = resolve(root, schema);
    if (s.default !== undefined) return JSON.parse(JSON.stringify(s.default));
    if (s.const !== undefined) return s.const;
    const b = branches(root, s);
    if (b) return b.some((x) => x.type === "null") ? null : defaultFor(root, b[0]);
    if (s.type === "object") {
      const out = {};
      for (const key of s.required || []) out[key] = defaultFor(root, s.properties[key]);
      return out;
    }
    return { array: [], string: "", integer: 0, number: 0, boolean: false }[s.type] ?? null;
  }

  let fieldSeq = 0;
  // A field for `value` under `schema`; returns {node, get}. Unknown shapes fall back to a
  // JSON text box, so every part of the scenario stays editable.
  function field(root, schema, value, name) {
    let s = resolve(root, schema);
    const b = branches(root, s);
    if (b) {
      const real = b.filter((x) => x.type !== "null");
      const nullable = real.length < b.length;
      if (real.length === 1) s = real[0];
      else {
        const kind = value && typeof value === "object" ? value.kind : undefined;
        const match = real.find((x) => x.properties && x.properties.kind && x.properties.kind.const === kind);
        if (match) s = match;
        else return jsonField(value, name);
      }
      if (nullable && (value === null || value === undefined)) {
        const box = el("div", { class: "judge-null" }, el("span", { class: "muted", text: `${name}: none` }));
        return { node: box, get: () => null };
      }
    }
    const id = `judge-${++fieldSeq}`;
    if (s.enum || s.const !== undefined) {
      const choices = s.enum || [s.const];
      const select = el("select", { id, name });
      for (const c of choices) select.append(el("option", { value: String(c), text: String(c) }));
      select.value = String(value ?? choices[0]);
      if (s.const !== undefined) select.disabled = true;
      return { node: el("div", { class: "judge-field" }, el("label", { for: id, text: name }), select),
               get: () => (typeof choices[0] === "number" ? Number(select.value) : select.value) };
    }
    if (s.type === "object" && s.properties) {
      const set = el("fieldset", { class: "judge-object" }, el("legend", { text: name }));
      const parts = [];
      const obj = value && typeof value === "object" ? value : {};
      for (const [key, sub] of Object.entries(s.properties)) {
        const f = field(root, sub, obj[key] !== undefined ? obj[key] : defaultFor(root, sub), key);
        parts.push([key, f]);
        set.append(f.node);
      }
      return { node: set, get: () => Object.fromEntries(parts.map(([k, f]) => [k, f.get()])) };
    }
    if (s.type === "array" && s.items) {
      const set = el("fieldset", { class: "judge-array" }, el("legend", { text: name }));
      const list = el("div", { class: "judge-items" });
      const items = [];
      const addItem = (v) => {
        const f = field(root, s.items, v, `${name} ${items.length + 1}`);
        const row = el("div", { class: "judge-item" }, f.node);
        const remove = el("button", { type: "button", class: "link-button", text: `Remove ${name} item` });
        const entry = { f, row };
        remove.addEventListener("click", () => { items.splice(items.indexOf(entry), 1); row.remove(); });
        row.append(remove);
        items.push(entry);
        list.append(row);
      };
      for (const v of Array.isArray(value) ? value : []) addItem(v);
      const add = el("button", { type: "button", class: "link-button", text: `Add ${name} item` });
      add.addEventListener("click", () => addItem(defaultFor(root, s.items)));
      set.append(list, add);
      return { node: set, get: () => items.map((e) => e.f.get()) };
    }
    if (s.type === "boolean") {
      const box = el("input", { id, name, type: "checkbox" });
      box.checked = Boolean(value);
      return { node: el("div", { class: "judge-field judge-check" }, box, el("label", { for: id, text: name })), get: () => box.checked };
    }
    if (s.type === "integer" || s.type === "number" || s.type === "string") {
      const input = el("input", { id, name, type: s.type === "string" ? "text" : "number" });
      input.value = value === null || value === undefined ? "" : String(value);
      return { node: el("div", { class: "judge-field" }, el("label", { for: id, text: name }), input),
               get: () => (s.type === "string" ? input.value : input.value === "" ? null : Number(input.value)) };
    }
    return jsonField(value, name);
  }

  function jsonField(value, name) {
    const id = `judge-${++fieldSeq}`;
    const area = el("textarea", { id, name, rows: "3", class: "judge-json" });
    area.value = JSON.stringify(value ?? null, null, 1);
    return { node: el("div", { class: "judge-field" }, el("label", { for: id, text: `${name} (JSON)` }), area),
             get: () => JSON.parse(area.value) };
  }

  function renderJudge(node, answer) {
    // An abstention without a scenario starts from the schema's defaults for its game.
    if (!answer.scenario && !answer.game) return;
    const details = $('[data-testid="judge"]', node);
    const form = $('[data-testid="judge-form"]', details);
    const result = $('[data-testid="judge-result"]', details);
    let built = null;
    details.hidden = false;
    details.addEventListener("toggle", async () => {
      if (!details.open || built) return;
      try {
        const root = await scenarioSchema();
        const start = answer.scenario || { ...defaultFor(root, root), game: answer.game };
        built = field(root, root, start, "scenario");
        $(".judge-fields", form).replaceChildren(built.node);
      } catch (err) {
        result.hidden = false;
        result.textContent = `Could not load the scenario form: ${err.message}`;
      }
    });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (!built) return;
      result.hidden = false;
      let scenario;
      try {
        scenario = built.get();
      } catch (err) {
        result.textContent = `A JSON box is not valid JSON: ${err.message}`;
        return;
      }
      result.textContent = "Checking\u2026";
      try {
        const d = await api("/v1/check", { json: scenario });
        const verdict = d.value !== null && d.value !== undefined ? `${d.value}` : d.verdict === "yes" ? "Yes" : "No";
        const rules = (d.rules || []).map((r) => `${r.rule} (${r.doc})`).join(", ");
        const steps = el("ol", { class: "step-list" });
        for (const t of d.trace || []) steps.append(el("li", { text: `${t.rule}: ${t.step}${t.result ? ` \u2192 ${t.result}` : ""}` }));
        result.replaceChildren(
          el("p", { dataset: { testid: "judge-verdict", verdict: d.verdict }, text: `${verdict}. ${d.reason || ""}` }),
          el("p", { class: "muted", text: rules ? `Rules: ${rules}` : "" }),
          steps,
        );
      } catch (err) {
        result.textContent = err.message;
      }
    });
  }

  // ---------------------------------------------------------------- feedback and permalinks

  function wireFeedback(node, answer) {
    const status = $('[data-testid="feedback-status"]', node);
    const buttons = [...node.querySelectorAll(".thumb")];
    if (!answer.answer_id) {
      for (const b of buttons) b.disabled = true;
      return;
    }
    for (const button of buttons) {
      button.addEventListener("click", async () => {
        const helpful = button.dataset.helpful === "true";
        for (const b of buttons) b.disabled = true;
        status.textContent = "Sending\u2026";
        status.dataset.state = "sending";
        try {
          await api("/v1/feedback", { json: { answer_id: answer.answer_id, helpful } });
          for (const b of buttons) b.setAttribute("aria-pressed", b === button ? "true" : "false");
          status.textContent = helpful ? "Thanks, recorded as helpful." : "Thanks, recorded as not helpful.";
          status.dataset.state = "recorded";
        } catch (err) {
          status.textContent = `Feedback not sent: ${err.message}`;
          status.dataset.state = "error";
        } finally {
          for (const b of buttons) b.disabled = false;
        }
      });
    }
  }

  function permalink(answerId) {
    return `${window.location.origin}/?a=${encodeURIComponent(answerId)}`;
  }

  async function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      try {
        await navigator.clipboard.writeText(text);
        return true;
      } catch (err) {
        // Fall through: permission denied in some browsers.
      }
    }
    const area = el("textarea", { class: "visually-hidden", readonly: "" });
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch (err) {
      ok = false;
    }
    area.remove();
    return ok;
  }

  function wireCopyLink(node, answer) {
    const button = $('[data-testid="copy-link"]', node);
    const status = $('[data-testid="copy-status"]', node);
    if (!answer.answer_id) {
      button.disabled = true;
      return;
    }
    const link = permalink(answer.answer_id);
    button.dataset.link = link;
    button.addEventListener("click", async () => {
      const ok = await copyText(link);
      status.replaceChildren();
      if (ok) {
        status.textContent = "Link copied.";
      } else {
        // Clipboard blocked: show the link so it can be copied by hand.
        status.append("Copy this link: ", el("a", { href: link, text: link }));
      }
      status.dataset.state = ok ? "copied" : "shown";
    });
  }

  // ---------------------------------------------------------------- asking

  function appendExchange(node) {
    const thread = $('[data-testid="thread"]');
    thread.append(node);
    $('[data-testid="empty-hint"]').hidden = true;
    const card = $('[data-testid="answer"]', node);
    card.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  function pendingNode(question) {
    return el(
      "li",
      { class: "exchange pending", dataset: { testid: "pending" } },
      el("div", { class: "bubble question-bubble" }, el("p", { class: "question-text", text: question })),
      el("div", { class: "answer-card thinking" }, el("span", { class: "spinner", "aria-hidden": "true" }), " Checking the rules\u2026"),
    );
  }

  async function ask(question, game) {
    showError("");
    setBusy(true);
    const thread = $('[data-testid="thread"]');
    const pending = pendingNode(question);
    thread.append(pending);
    $('[data-testid="empty-hint"]').hidden = true;
    try {
      const answer = await api("/v1/ask", {
        json: { question, game: game || null, conversation_id: state.conversationId },
      });
      pending.remove();
      if (answer.conversation_id) setConversation(answer.conversation_id);
      appendExchange(renderAnswer(answer, question));
      return true;
    } catch (err) {
      pending.remove();
      if (!thread.children.length) $('[data-testid="empty-hint"]').hidden = false;
      showError(err.message);
      return false;
    } finally {
      setBusy(false);
    }
  }

  function wireForm() {
    const form = $('[data-testid="ask-form"]');
    const box = $('[data-testid="question"]');
    const select = $('[data-testid="game"]');

    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (state.busy) return;
      const question = box.value.trim();
      if (!question) {
        showError("Type a question first.");
        box.focus();
        return;
      }
      const ok = await ask(question, select.value);
      if (ok) box.value = "";
      box.focus();
    });

    box.addEventListener("keydown", (event) => {
      // Enter sends, Shift+Enter is a new line; leave IME composition alone.
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        form.requestSubmit();
      }
    });

    $('[data-testid="new-conversation"]').addEventListener("click", () => {
      setConversation(null);
      $('[data-testid="thread"]').replaceChildren();
      $('[data-testid="empty-hint"]').hidden = false;
      showError("");
      if (new URLSearchParams(window.location.search).has("a")) {
        window.history.replaceState(null, "", "/");
      }
      box.focus();
    });
  }

  async function loadPermalink() {
    const id = new URLSearchParams(window.location.search).get("a");
    if (!id) return;
    try {
      const answer = await api(`/v1/answers/${encodeURIComponent(id)}`);
      if (answer.conversation_id) setConversation(answer.conversation_id);
      appendExchange(renderAnswer(answer, answer.question));
    } catch (err) {
      showError(err.status === 404 ? `No stored answer with id ${id}.` : `Could not load answer ${id}: ${err.message}`);
    }
  }

  // A printed answer (a judge's record) shows the engine's steps: open them for printing only.
  function wirePrint() {
    window.addEventListener("beforeprint", () => {
      for (const d of document.querySelectorAll("details.steps:not([open])")) {
        d.open = true;
        d.dataset.printOpened = "true";
      }
    });
    window.addEventListener("afterprint", () => {
      for (const d of document.querySelectorAll('details[data-print-opened="true"]')) {
        d.open = false;
        delete d.dataset.printOpened;
      }
    });
  }

  async function main() {
    wireForm();
    wirePrint();
    await loadGames();
    await loadPermalink();
    document.body.dataset.ready = "true";
  }

  document.addEventListener("DOMContentLoaded", main);
})();
