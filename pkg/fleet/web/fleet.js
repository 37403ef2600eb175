// The fleet page: renders the model /api/events pushes (see pkg/fleet's
// Model), again on every push and every few seconds for the ages. It only
// reads: nothing here changes the cluster.
(function () {
  "use strict";

  const SVG = "http://www.w3.org/2000/svg";
  const HEALTH_WORDS = { failed: "FAILED", recycling: "RECYCLING", cordoned: "CORDONED" };

  let model = null;
  let selected = null;

  // el makes an HTML element with attributes and children (strings are
  // text: nothing is parsed as markup).
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    setAttrs(e, attrs);
    append(e, children);
    return e;
  }

  function svg(tag, attrs, ...children) {
    const e = document.createElementNS(SVG, tag);
    setAttrs(e, attrs);
    append(e, children);
    return e;
  }

  function setAttrs(e, attrs) {
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "text") e.textContent = v;
      else if (k === "class") e.setAttribute("class", v);
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : String(v));
    }
  }

  function append(e, children) {
    for (const c of children.flat(Infinity)) {
      if (c === undefined || c === null || c === false) continue;
      e.append(typeof c === "string" ? document.createTextNode(c) : c);
    }
  }

  function refName(w) { return w.kind + " " + w.namespace + "/" + w.name; }

  function clip(s, n) { return s.length > n ? s.slice(0, n - 1) + "…" : s; }

  // age says how long ago an RFC 3339 time was, as kubectl does.
  function age(t) {
    if (!t) return "-";
    let s = Math.max(0, Math.floor((Date.now() - Date.parse(t)) / 1000));
    if (s < 120) return s + "s";
    if (s < 600) return Math.floor(s / 60) + "m" + (s % 60 ? (s % 60) + "s" : "");
    if (s < 3 * 3600) return Math.floor(s / 60) + "m";
    if (s < 48 * 3600) return Math.floor(s / 3600) + "h";
    return Math.floor(s / 86400) + "d";
  }

  function clock(t) {
    const d = new Date(Date.parse(t));
    return d.toLocaleTimeString([], { hour12: false });
  }

  function when(t) { return t ? new Date(Date.parse(t)).toLocaleString([], { hour12: false }) + " (" + age(t) + " ago)" : "-"; }

  function plural(n, noun) { return n + " " + noun + (n === 1 ? "" : "s"); }

  function number(v) { return Number.isInteger(v) ? String(v) : v.toFixed(2).replace(/\.?0+$/, ""); }

  // --- Pools ---------------------------------------------------------

  // tooltip is what pointing at a tile says.
  function tooltip(p) {
    const lines = [
      "Pool " + p.name,
      "Accelerator: " + (p.accelerator || "none") + (p.topology ? ", topology " + p.topology : ""),
      "Zone: " + (p.zone || "-"),
      "Nodes: " + p.nodes + (p.resource ? ", " + (p.used || 0) + " of " + (p.capacity || 0) + " " + p.resource + " in use" : ""),
      "Health: " + p.health,
    ];
    for (const pr of p.problems || []) lines.push("  " + pr);
    const holders = p.holders || [];
    if (holders.length === 0) lines.push("Holder: none (free)");
    for (const h of holders) {
      lines.push("Holder: " + refName(h.workload) + ", priority " + h.priority + ", " + h.pods + " pods, since " + when(h.since));
    }
    return lines.join("\n");
  }

  function tile(p, index) {
    const holders = p.holders || [];
    const w = 180, h = 108;
    const g = svg("svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": tooltip(p) });
    const clipId = "tile-clip-" + index;
    g.append(svg("defs", {}, svg("clipPath", { id: clipId }, svg("rect", { x: 2, y: 2, width: w - 4, height: h - 4, rx: 9 }))));
    const body = svg("g", { "clip-path": `url(#${clipId})` });
    if (holders.length === 0) {
      body.append(svg("rect", { x: 0, y: 0, width: w, height: h, fill: "var(--free)" }));
    } else {
      // Several holders share the tile in proportion to their pods.
      const pods = holders.reduce((n, x) => n + Math.max(1, x.pods), 0);
      let x = 0;
      for (const hd of holders) {
        const width = (w * Math.max(1, hd.pods)) / pods;
        body.append(svg("rect", { x: x, y: 0, width: width + 0.5, height: h, fill: hd.colour }));
        x += width;
      }
    }
    if (p.health === "failed" || p.health === "recycling") {
      body.append(svg("rect", { x: 0, y: 0, width: w, height: h, fill: `url(#hatch-${p.health})` }));
    }
    body.append(svg("rect", { x: 10, y: 36, width: w - 20, height: 62, rx: 6, fill: "#ffffff", "fill-opacity": 0.93 }));
    g.append(body);

    // Top band: the health word, and the holder's priority.
    if (HEALTH_WORDS[p.health]) {
      const colour = { failed: "var(--failed)", recycling: "#9a6700", cordoned: "var(--cordoned)" }[p.health];
      g.append(svg("rect", { x: 10, y: 9, width: 86, height: 20, rx: 10, fill: "#ffffff", stroke: colour, "stroke-width": 1.5 }));
      g.append(svg("text", { x: 53, y: 23, "text-anchor": "middle", class: "badge", fill: colour, text: HEALTH_WORDS[p.health] }));
    }
    if (holders.length > 0) {
      const prio = Math.max(...holders.map((x) => x.priority));
      const label = "prio " + prio;
      const bw = 14 + label.length * 6.2;
      g.append(svg("rect", { x: w - 10 - bw, y: 9, width: bw, height: 20, rx: 10, fill: "#1d2330", "fill-opacity": 0.82 }));
      g.append(svg("text", { x: w - 10 - bw / 2, y: 23, "text-anchor": "middle", class: "badge", fill: "#ffffff", text: label }));
    }

    g.append(svg("text", { x: 18, y: 54, class: "name", text: clip(p.name, 22) }));
    if (holders.length === 0) {
      g.append(svg("text", { x: 18, y: 71, class: "free-label", text: "free" }));
    } else {
      const first = holders[0].workload;
      const more = holders.length > 1 ? " +" + (holders.length - 1) : "";
      g.append(svg("text", { x: 18, y: 71, class: "holder", text: clip(first.kind + " " + first.name, 24 - more.length) + more }));
    }
    const use = p.resource ? `${p.used || 0}/${p.capacity || 0} ${p.resource.split("/").pop()}` : "no accelerator";
    g.append(svg("text", { x: 18, y: 88, class: "meta", text: clip(`${plural(p.nodes, "node")} · ${use}`, 28) }));

    // Outline: health.
    const outline = {
      failed: { stroke: "var(--failed)", "stroke-width": 4 },
      recycling: { stroke: "var(--recycling)", "stroke-width": 4 },
      cordoned: { stroke: "var(--cordoned)", "stroke-width": 3, "stroke-dasharray": "9 5" },
    }[p.health] || { stroke: holders.length ? "rgba(0,0,0,0.28)" : "#b9c0ca", "stroke-width": 1.5, "stroke-dasharray": holders.length ? null : "5 4" };
    g.append(svg("rect", Object.assign({ x: 2, y: 2, width: w - 4, height: h - 4, rx: 9, fill: "none" }, outline)));

    const t = el("div", {
      class: "tile" + (selected === p.name ? " selected" : ""), tabindex: 0, title: tooltip(p),
      "data-pool": p.name, "data-health": p.health, "data-holders": holders.map((x) => refName(x.workload)).join(","),
      onclick: () => select(p.name), onfocus: () => select(p.name),
    }, g);
    return t;
  }

  function select(name) {
    if (selected === name) return;
    selected = name;
    for (const t of document.querySelectorAll(".tile")) t.classList.toggle("selected", t.dataset.pool === name);
    renderDetail();
  }

  function renderPools() {
    const box = document.getElementById("pools");
    box.replaceChildren();
    if (model.pools.length === 0) {
      box.append(el("p", { class: "empty", text: "No node pools: no node is labelled cloud.google.com/gke-nodepool." }));
      return;
    }
    // Pools of one accelerator and topology side by side.
    const groups = new Map();
    for (const p of model.pools) {
      const key = (p.accelerator || "no accelerator") + (p.topology ? " " + p.topology : "");
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(p);
    }
    let index = 0;
    for (const [key, pools] of groups) {
      const zones = [...new Set(pools.map((p) => p.zone).filter(Boolean))].join(", ");
      const held = pools.filter((p) => (p.holders || []).length > 0).length;
      box.append(el("div", { class: "pool-group" },
        el("h3", {}, el("b", { text: key }), ` · ${plural(pools.length, "pool")}, ${held} held` + (zones ? " · " + zones : "")),
        el("div", { class: "tiles" }, pools.map((p) => tile(p, index++)))));
    }
  }

  function renderDetail() {
    const box = document.getElementById("detail");
    const p = model && model.pools.find((x) => x.name === selected);
    box.replaceChildren();
    if (!p) {
      box.append(el("p", { class: "hint", text: "Select a pool for its accelerator, zone, nodes, health and holders." }));
      return;
    }
    const holders = p.holders || [];
    const rows = [
      ["Accelerator", p.accelerator || "none"],
      ["Topology", p.topology || "-"],
      ["Zone", p.zone || "-"],
      ["Nodes", String(p.nodes)],
      ["In use", p.resource ? `${p.used || 0} of ${p.capacity || 0} ${p.resource}` : "-"],
      ["Health", el("span", { class: "health " + p.health, text: p.health })],
    ];
    if ((p.problems || []).length) rows.push(["Why", el("ul", {}, p.problems.map((x) => el("li", { text: x })))]);
    rows.push(["Holder", holders.length === 0 ? "none: free" : el("ul", {}, holders.map((h) =>
      el("li", {}, el("span", { class: "swatch" }, ""), refName(h.workload), el("br"),
        `priority ${h.priority}, ${h.pods} pods, since ${when(h.since)}`)))]);
    box.append(el("h3", { text: "Pool " + p.name }), el("dl", {}, rows.map(([k, v]) => [el("dt", { text: k }), el("dd", {}, v)])));
    // Colour the swatches through the CSSOM (the page's policy allows no style attributes).
    box.querySelectorAll(".swatch").forEach((s, i) => { s.style.background = holders[i].colour; });
    if ((p.domains || []).length) renderDomains(box, p);
  }

  // A pool arranged by a Topology: its domains drawn nested (block, then
  // subblock), each host a cell in the colour of the first workload with
  // pods on it; a host that is not ok is outlined in its health's colour.
  function renderDomains(box, p) {
    const colours = new Map(model.workloads.map((w) => [refName(w.workload), w.colour]));
    const level = (key) => key.split("/").pop().replace(/^gce-topology-/, "");
    const host = (h) => {
      const holders = (h.holders || []).map(refName);
      const cell = el("span", {
        class: "host " + h.health + (holders.length ? " held" : ""), "data-node": h.node,
        title: `${h.node}: ${h.used || 0}/${h.capacity || 0} ${(p.resource || "").split("/").pop()}` +
          (holders.length ? " · " + holders.join(", ") : " · free") + (h.health !== "ok" ? " · " + h.health : ""),
      });
      if (holders.length) cell.dataset.holder = holders[0];
      return cell;
    };
    const domain = (d) => {
      const hosts = d.hosts || [];
      const used = hosts.filter((h) => (h.holders || []).length > 0).length;
      const box = el("div", { class: "domain", "data-domain": d.value },
        el("div", { class: "domain-name" }, el("b", { text: `${level(d.level)} ${d.value}` }),
          hosts.length ? ` · ${used}/${hosts.length} hosts held` : ""));
      if ((d.domains || []).length) box.append(el("div", { class: "domains" }, d.domains.map(domain)));
      if (hosts.length) box.append(el("div", { class: "hosts" }, hosts.map(host)));
      return box;
    };
    const section = el("div", { class: "topology" },
      el("h4", { text: "Topology " + p.topologyName }), el("div", { class: "domains" }, p.domains.map(domain)));
    box.append(section);
    section.querySelectorAll(".host.held").forEach((c) => { c.style.background = colours.get(c.dataset.holder) || "#8fa3bf"; });
  }

  function legendTile(health, free) {
    const attrs = { x: 1.5, y: 1.5, width: 25, height: 17, rx: 4 };
    const g = svg("svg", { width: 28, height: 20, viewBox: "0 0 28 20", "aria-hidden": "true" });
    g.append(svg("rect", Object.assign({ fill: free ? "var(--free)" : "#8fa3bf" }, attrs)));
    if (health === "failed" || health === "recycling") g.append(svg("rect", Object.assign({ fill: `url(#hatch-${health})` }, attrs)));
    const outline = {
      failed: { stroke: "var(--failed)", "stroke-width": 3 },
      recycling: { stroke: "var(--recycling)", "stroke-width": 3 },
      cordoned: { stroke: "var(--cordoned)", "stroke-width": 2.5, "stroke-dasharray": "5 3" },
      free: { stroke: "#b9c0ca", "stroke-width": 1.5, "stroke-dasharray": "4 3" },
    }[free ? "free" : health] || { stroke: "rgba(0,0,0,0.28)", "stroke-width": 1 };
    g.append(svg("rect", Object.assign({ fill: "none" }, attrs, outline)));
    return g;
  }

  function renderLegend() {
    const box = document.getElementById("legend");
    box.replaceChildren();
    const workloads = el("div", { class: "group" });
    if (model.workloads.length === 0) workloads.append(el("span", { class: "note", text: "No workload holds a pool." }));
    for (const w of model.workloads) {
      const sw = el("span", { class: "swatch" });
      sw.style.background = w.colour;
      workloads.append(el("span", { class: "key", title: "holds " + w.pools.join(", ") + " since " + when(w.since) },
        sw, refName(w.workload), el("span", { class: "note", text: ` prio ${w.priority} · ${plural(w.pools.length, "pool")}` })));
    }
    const marks = el("div", { class: "group" },
      el("span", { class: "key" }, legendTile("ok", true), "free"),
      el("span", { class: "key" }, legendTile("failed"), "failed (a node not Ready)"),
      el("span", { class: "key" }, legendTile("recycling"), "recycling (flex-start)"),
      el("span", { class: "key" }, legendTile("cordoned"), "cordoned"),
      el("span", { class: "key note", text: "prio N: the holder's priority" }));
    box.append(workloads, marks);
  }

  // --- Queues --------------------------------------------------------

  function bar(b) {
    const W = 400, H = 16;
    const own = Math.max(0, b.inUse - b.borrowed);
    const scale = Math.max(b.nominal + b.borrowed, b.inUse, b.nominal) || 1;
    const x = (v) => (W * v) / scale;
    const g = svg("svg", { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", role: "img", "aria-label": b.label });
    g.append(svg("rect", { x: 0, y: 2, width: x(b.nominal), height: H - 4, fill: "#e6eaf0", rx: 2 }));
    g.append(svg("rect", { x: 0, y: 2, width: x(Math.min(own, b.nominal)), height: H - 4, fill: "var(--own)", rx: 2 }));
    if (b.borrowed > 0) {
      g.append(svg("rect", { x: x(b.nominal), y: 2, width: x(b.borrowed), height: H - 4, fill: "url(#hatch-borrowed)" }));
    }
    if (b.nominal > 0 && scale > b.nominal) {
      g.append(svg("line", { x1: x(b.nominal), x2: x(b.nominal), y1: 0, y2: H, stroke: "#1d2330", "stroke-width": 2 }));
    }
    return g;
  }

  function renderQueues() {
    const box = document.getElementById("queues");
    box.replaceChildren();
    if (model.queues.length === 0) {
      box.append(el("p", { class: "empty", text: "No ClusterQueues." }));
      return;
    }
    for (const q of model.queues) {
      const head = el("div", { class: "queue-head" }, el("b", { text: q.name }),
        q.cohort ? el("span", { class: "cohort", text: "cohort " + q.cohort }) : null,
        el("span", { class: "counts", text: `${q.pending} pending · ${q.reserving} reserving · ${q.admitted} admitted` }),
        q.active ? null : el("span", { class: "inactive", text: "inactive: " + (q.inactive || "") }));
      const bars = q.bars.map((b) => el("div", { class: "bar", "data-flavor": b.flavor, "data-resource": b.resource },
        el("span", { class: "what", title: `${b.flavor} · ${b.resource}` }, el("b", { text: b.flavor }), " · " + b.resource),
        bar(b),
        el("span", { class: "numbers", text: b.label + (b.borrowingLimit !== undefined ? `, may borrow ${number(b.borrowingLimit)}` : "") })));
      box.append(el("div", { class: "queue", "data-queue": q.name }, head, bars.length ? bars : el("p", { class: "empty", text: "No quota." })));
    }
  }

  // --- Pending -------------------------------------------------------

  function renderPending() {
    document.getElementById("order").textContent = model.pending.order ? "Order: " + model.pending.order + "." : "";
    const box = document.getElementById("pending");
    box.replaceChildren();
    const list = model.pending.workloads || [];
    if (list.length === 0) {
      box.append(el("p", { class: "empty", text: "Nothing waits." }));
      return;
    }
    const rows = [];
    let group;
    for (const w of list) {
      const g = w.clusterQueue || "";
      if (g !== group) {
        group = g;
        rows.push(el("tr", { class: "group" }, el("td", { colspan: 6, text: g ? "ClusterQueue " + g : "No queue" })));
      }
      const chip = el("span", { class: "swatch" });
      if (w.colour) chip.style.background = w.colour;
      else chip.style.visibility = "hidden";
      rows.push(el("tr", { class: "pending", "data-workload": refName(w.workload), "data-position": w.position },
        el("td", { class: "pos", text: String(w.position) }),
        el("td", {}, chip, refName(w.workload), w.evicted ? el("span", { class: "message", text: "evicted: " + w.evicted }) : null),
        el("td", { text: w.localQueue || "-" }),
        el("td", { text: String(w.priority) }),
        el("td", { text: age(w.created), title: when(w.created) }),
        el("td", {}, el("span", { class: "reason", text: w.reason }), w.message ? el("span", { class: "message", title: w.message, text: w.message }) : null)));
    }
    box.append(el("table", { class: "pending-list" },
      el("thead", {}, el("tr", {}, ["#", "Workload", "LocalQueue", "Priority", "Waiting", "Reason"].map((h) => el("th", { text: h })))),
      el("tbody", {}, rows)));
  }

  // --- Timeline ------------------------------------------------------

  function renderTimeline() {
    const box = document.getElementById("timeline");
    box.replaceChildren();
    if (model.timeline.length === 0) {
      box.append(el("li", { class: "empty", text: "Nothing has happened yet." }));
      return;
    }
    for (const e of model.timeline) {
      const chip = el("span", { class: "swatch" });
      if (e.colour) chip.style.background = e.colour;
      box.append(el("li", { class: "entry kind-" + e.kind, "data-kind": e.kind, "data-subject": e.subject },
        el("time", { datetime: e.time, title: when(e.time) }, clock(e.time), el("small", { text: age(e.time) + " ago" })),
        el("span", { class: "what", text: e.what }),
        el("span", { class: "text" }, e.colour ? chip : null, el("span", { class: "subject", text: e.subject }),
          e.message ? el("span", { class: "message", text: e.message }) : null)));
    }
  }

  // --- The whole page ------------------------------------------------

  function renderHeader() {
    const pools = model.pools;
    const count = (f) => pools.filter(f).length;
    const held = count((p) => (p.holders || []).length > 0);
    const failed = count((p) => p.health === "failed");
    const pending = (model.pending.workloads || []).length;
    document.getElementById("summary").textContent =
      `${pools.length} pools: ${held} held, ${pools.length - held} free` + (failed ? `, ${failed} failed` : "") + ` · ${pending} pending`;
    document.getElementById("updated").textContent = "last change " + clock(model.at);
  }

  function render() {
    if (!model) return;
    // Tiles are made anew: the one that had the focus gets it back.
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.pool : undefined;
    renderHeader();
    renderLegend();
    renderPools();
    if (focused) {
      const t = [...document.querySelectorAll(".tile")].find((x) => x.dataset.pool === focused);
      if (t) t.focus();
    }
    renderDetail();
    renderQueues();
    renderPending();
    renderTimeline();
    document.body.dataset.version = String(model.version || "");
  }

  function status(live) {
    const s = document.getElementById("status");
    s.className = "status " + (live ? "live" : "connecting");
    s.textContent = live ? "live" : "reconnecting…";
  }

  function connect() {
    const source = new EventSource("api/events");
    source.addEventListener("open", () => status(true));
    source.addEventListener("error", () => status(false));
    source.addEventListener("fleet", (ev) => {
      model = JSON.parse(ev.data);
      model.version = ev.lastEventId;
      status(true);
      render();
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    connect();
    // Ages move on between models; the tiles (and the focus) stay.
    setInterval(() => {
      if (!model) return;
      renderDetail();
      renderPending();
      renderTimeline();
    }, 5000);
  });
})();
