// Our Kamailio configuration for the local voice lab (docs/decisions/voice-local-lab.md). Browsers (JsSIP) reach it
// over WebSocket and prove themselves with the server's short-lived autheph credentials; the SIPp "carrier" reaches
// it over UDP on loopback. Media of every call goes through rtpengine (WebRTC's DTLS-SRTP/ICE on the browser side,
// plain RTP on the carrier side), recorded from the start (the server pauses and resumes it over rtpengine's ng
// protocol). Each call-state change is posted to the lab's relay (relay.mjs), which signs it for Harbor; an inbound
// INVITE first asks Harbor (through the relay) which agent the dialed number belongs to.

/** Kamailio string literal: the values we put in are ours (ports, paths, a hex secret), quotes escaped anyway. */
const q = (s) => `"${String(s).replace(/(["\\])/g, '\\$1')}"`;

/**
 * @param {{ host: string, sipPort: number, wsPort: number, ngPort: number, carrier: string, relayUrl: string,
 *   secret: string, modules: string }} o
 */
export function kamailioConfig(o) {
  const event = (fields) =>
    // A JSON body built in the script: every value is escaped for a JSON string.
    `"{${fields.map(([k, v]) => `\\"${k}\\":\\"${v.startsWith('=') ? v.slice(1) : `$(${v}{s.escape.common})`}\\"`).join(',')}}"`;
  const post = (fields, result = '$var(ignored)') =>
    `http_client_query(${q(`${o.relayUrl}/kamailio`)}, ${event(fields)}, "Content-Type: application/json", "${result}")`;
  const base = [
    ['ci', 'ci'],
    ['ts', 'TV(Sn)'],
  ];
  return `#!KAMAILIO
# Written by scripts/voice-lab.mjs: the local voice lab's SIP proxy. Not an installed service.
debug=2
log_stderror=yes
children=2
tcp_children=2
disable_tcp=no
auto_aliases=no
alias=${o.host}:${o.sipPort}
alias=${o.host}:${o.wsPort}
listen=udp:${o.host}:${o.sipPort}
listen=tcp:${o.host}:${o.wsPort}
# WebSocket upgrade requests carry no Content-Length.
tcp_accept_no_cl=yes
mpath=${q(o.modules)}

loadmodule "tm.so"
loadmodule "tmx.so"
loadmodule "sl.so"
loadmodule "rr.so"
loadmodule "pv.so"
loadmodule "maxfwd.so"
loadmodule "textops.so"
loadmodule "siputils.so"
loadmodule "xlog.so"
loadmodule "sanity.so"
loadmodule "corex.so"
loadmodule "kex.so"
loadmodule "xhttp.so"
loadmodule "websocket.so"
loadmodule "nathelper.so"
loadmodule "rtpengine.so"
loadmodule "sdpops.so"
loadmodule "usrloc.so"
loadmodule "registrar.so"
loadmodule "auth.so"
loadmodule "auth_ephemeral.so"
loadmodule "http_client.so"

modparam("rtpengine", "rtpengine_sock", ${q(`udp:${o.host}:${o.ngPort}`)})
# Two Record-Route headers where a call changes transport (WebSocket <-> UDP).
modparam("rr", "enable_double_rr", 1)
modparam("nathelper|registrar", "received_avp", "$avp(RECEIVED)")
# The server's token: username "<expiry>:harbor-u<id>", password base64(HMAC-SHA1(secret, username)).
modparam("auth_ephemeral", "secret", ${q(o.secret)})
# The relay answers at once when the machine is idle; under a whole test run's load Harbor's answer took over 2 s.
# A stuck relay must still not hold a SIP worker for long.
modparam("http_client", "connection_timeout", 8)
modparam("http_client", "query_result", 0)

request_route {
  if (!mf_process_maxfwd_header("10")) { sl_send_reply("483", "Too Many Hops"); exit; }
  if (!sanity_check("17895", "7")) { exit; }
  if ($proto == "ws" || $proto == "wss") {
    force_rport();
    # Browsers' Contact hosts are *.invalid: route to them through the WebSocket connection they came on.
    if (is_method("REGISTER")) { fix_nated_register(); } else if (is_method("INVITE")) { add_contact_alias(); }
  }
  if (is_method("OPTIONS")) { sl_send_reply("200", "OK"); exit; }
  if (has_totag()) { route(IN_DIALOG); exit; }
  if (is_method("CANCEL")) {
    if (t_check_trans()) {
      ${post([...base, ['e', '=cancel']])};
      rtpengine_delete();
      t_relay();
    }
    exit;
  }
  t_check_trans();
  if (is_method("REGISTER")) { route(REGISTER); exit; }
  if (is_method("INVITE") && ($proto == "ws" || $proto == "wss")) { route(FROM_BROWSER); exit; }
  if (is_method("INVITE") && $proto == "udp" && $si == ${q(o.host)}) { route(FROM_CARRIER); exit; }
  sl_send_reply("403", "Not from here");
}

route[IN_DIALOG] {
  if (!loose_route()) {
    if (is_method("ACK") && t_check_trans()) { t_relay(); exit; }
    sl_send_reply("404", "Not here");
    exit;
  }
  handle_ruri_alias();
  if (is_method("BYE")) {
    ${post([...base, ['e', '=bye']])};
    rtpengine_delete();
  }
  t_relay();
}

route[REGISTER] {
  if ($proto != "ws" && $proto != "wss") { sl_send_reply("403", "Browsers only"); exit; }
  # Only the server's short-lived credentials, and only for the identity they were issued to.
  if (!autheph_check("$fd")) { auth_challenge("$fd", "0"); exit; }
  if (!autheph_check_from()) { sl_send_reply("403", "Not your identity"); exit; }
  consume_credentials();
  # One softphone per person: a new registration replaces the last (a closed tab never unregisters, and a stale
  # WebSocket contact would fail the call's branch).
  if (!save("location", "0x04")) { sl_reply_error(); }
}

# An agent's call out: to the carrier (the SIPp far end), recorded from the start.
route[FROM_BROWSER] {
  if (!autheph_check("$fd")) { auth_challenge("$fd", "0"); exit; }
  if (!autheph_check_from()) { sl_send_reply("403", "Not your identity"); exit; }
  consume_credentials();
  ${post([...base, ['e', '=invite'], ['dir', '=out'], ['from', 'fU'], ['to', 'rU'], ['call', 'hdr(X-Harbor-Call)']])};
  record_route();
  rtpengine_offer("replace-origin replace-session-connection ICE=remove RTP/AVP rtcp-mux-demux SDES-off record-call=yes");
  t_on_reply("REPLY_TO_BROWSER");
  t_on_failure("FAILED");
  $du = ${q(o.carrier)};
  t_relay();
}

# A call in from the carrier: Harbor names the agent the dialed number belongs to (and opens its screen pop).
route[FROM_CARRIER] {
  # The transaction first, before asking Harbor: the carrier's retransmissions of the INVITE (after 0.5 s, 1 s, ...)
  # are then absorbed by it (t_check_trans) instead of each asking Harbor again in another worker. On a loaded CI
  # machine the answer took over the old 2 s limit: the first copy was refused 404 while a retransmitted one rang
  # the browser, and the carrier saw its call fail.
  if (!t_newtran()) { sl_reply_error(); exit; }
  t_reply("100", "Trying");
  $var(who) = "";
  ${post([...base, ['e', '=invite'], ['dir', '=in'], ['from', 'fU'], ['to', 'rU']], '$var(who)')};
  if ($var(who) == "busy") { t_reply("486", "Busy Here"); exit; }
  if (!($var(who) =~ "^harbor-u[0-9]+$")) { t_reply("404", "Not In Service"); exit; }
  $rU = $var(who);
  if (!lookup("location")) {
    ${post([...base, ['e', '=reply'], ['code', '=480']])};
    t_reply("480", "Temporarily Unavailable");
    exit;
  }
  handle_ruri_alias();
  record_route();
  rtpengine_offer("replace-origin replace-session-connection ICE=force UDP/TLS/RTP/SAVPF rtcp-mux-offer generate-mid SDES-off record-call=yes");
  t_on_reply("REPLY_FROM_BROWSER");
  t_on_failure("FAILED");
  if (!t_relay()) {
    ${post([...base, ['e', '=reply'], ['code', '=480']])};
    rtpengine_delete();
    t_reply("480", "Temporarily Unavailable");
  }
}

onreply_route[REPLY_TO_BROWSER] {
  if ($rs >= 180) { ${post([...base, ['e', '=reply'], ['code', 'rs']])}; }
  if (has_body("application/sdp")) {
    rtpengine_answer("replace-origin replace-session-connection ICE=force RTP/SAVPF rtcp-mux-require");
  }
}

onreply_route[REPLY_FROM_BROWSER] {
  if ($proto == "ws" || $proto == "wss") { add_contact_alias(); }
  if ($rs >= 180) { ${post([...base, ['e', '=reply'], ['code', 'rs']])}; }
  if (has_body("application/sdp")) {
    rtpengine_answer("replace-origin replace-session-connection ICE=remove RTP/AVP rtcp-mux-demux");
  }
}

failure_route[FAILED] {
  # Also a final failure Kamailio made itself (a timeout): the relay ends the call with it.
  ${post([...base, ['e', '=reply'], ['code', 'T_reply_code']])};
  rtpengine_delete();
}

event_route[xhttp:request] {
  if ($hdr(Upgrade) =~ "websocket" && $hdr(Connection) =~ "Upgrade" && $rm =~ "GET") {
    if (ws_handle_handshake()) { exit; }
  }
  xhttp_reply("404", "Not Found", "", "");
}
`;
}
