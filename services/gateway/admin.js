const token = document.querySelector("#token"), out = document.querySelector("#out");
token.value = sessionStorage.getItem("swick-admin") || "";
const esc = (v) => String(v).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const rows = (items, keys) => `<table><tr>${keys.map((k) => `<th>${k}</th>`).join("")}</tr>` +
  items.map((i) => `<tr>${keys.map((k) => `<td>${esc(Array.isArray(i[k]) ? i[k].join(", ") : i[k])}</td>`).join("")}</tr>`).join("") + "</table>";
async function show() {
  sessionStorage.setItem("swick-admin", token.value);
  const reply = await fetch("/admin/status", {headers: {authorization: `Bearer ${token.value}`}});
  if (!reply.ok) { out.textContent = `Refused (${reply.status})`; return; }
  const s = await reply.json();
  const health = s.ledger.ok ? '<span class="good">holds</span>' : '<span class="bad">BROKEN</span>';
  const attention = s.ledger.attention ? '<span class="bad">NEEDS AN OPERATOR</span>' : '<span class="good">none</span>';
  const problems = s.ledger_problems || {}, house = s.house || {};
  out.innerHTML = `<h2>Ledger invariants: ${health}</h2><pre>${esc(JSON.stringify(s.ledger, null, 1))}</pre>` +
    `<h2>Postings set aside: ${attention}</h2>` +
    `<h3>Dead letters (${s.ledger.dead_letters ?? "?"})</h3>${rows(problems.dead_letters || [], ["posting_id", "table_id", "posting_no", "reason", "times", "at"])}` +
    `<h3>Conflicting duplicates (${s.ledger.conflicts ?? "?"})</h3>${rows(problems.conflicts || [], ["posting_id", "table_id", "posting_no", "digest", "applied_digest", "times", "at"])}` +
    `<h3>Blocked tables</h3>${esc((s.ledger.blocked_tables || []).join(", ") || "none")}` +
    `<h2>The house (bots' bankroll), in ¢</h2>${rows([house], ["staked", "returned", "closed", "balance", "held_by_bots", "result"])}` +
    `<h2>Players online on this gateway: ${s.players_online.length}</h2>${esc(s.players_online.join(", "))}` +
    `<h2>Live tables (${s.tables.length})</h2>${rows(s.tables, ["table_id", "phase", "seq", "shard", "players"])}` +
    `<h2>Workers</h2>${rows(s.workers, ["worker_id", "seen_s_ago"])}` +
    `<h2>Shards</h2>${rows(s.shards, ["shard", "owner", "epoch", "live"])}`;
  document.querySelector("#when").textContent = new Date().toLocaleTimeString();
}
document.querySelector("#go").onclick = show;

// Deleting an account: asked for, then confirmed, then done; the answer is said either way.
const form = document.querySelector("#delete"), which = document.querySelector("#delete-id");
const confirmBox = document.querySelector("#delete-confirm"), result = document.querySelector("#delete-result");
form.onsubmit = (event) => {
  event.preventDefault();
  document.querySelector("#delete-which").textContent = which.value.trim();
  confirmBox.hidden = false;
  document.querySelector("#delete-no").focus();
};
document.querySelector("#delete-no").onclick = () => { confirmBox.hidden = true; which.focus(); };
document.querySelector("#delete-yes").onclick = async () => {
  const id = which.value.trim();
  confirmBox.hidden = true;
  result.textContent = `Deleting ${id}…`;
  const reply = await fetch(`/admin/accounts/${encodeURIComponent(id)}`, {
    method: "DELETE", headers: {authorization: `Bearer ${token.value}`}});
  const body = await reply.json().catch(() => ({}));
  if (!reply.ok) {
    const detail = typeof body.detail === "string" ? body.detail : `refused (${reply.status})`;
    result.textContent = `Not deleted: ${detail}`;
    return;
  }
  result.textContent = body.already_deleted
    ? `${id} was deleted already: nothing changed.`
    : `Deleted ${id}: ${body.returned_to_house}¢ went to the house; their name is gone from ` +
      `${body.tables_anonymised} table(s) and ${body.chat_lines_dropped} chat line(s).`;
  which.value = "";
};
if (token.value) { show(); setInterval(show, 5000); }
