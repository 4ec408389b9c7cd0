// SIPp as the lab's far end. SIPp's built-in uas/uac scenarios ignore Record-Route, so in-dialog requests would
// skip Kamailio and be lost: these scenarios keep the route set. The answerer echoes the caller's audio (so the
// recording has sound both ways) and offers telephone-event as Chrome's payload type 126 (rtpengine drops an answer
// codec that was not offered). The carrier places one inbound call with a caller id and hangs up after `holdMs`,
// or answers the agent's BYE if the agent hangs up first.

/** PCMU with telephone-event as Chrome's payload type 126 (SIPp fills in the addresses). */
const sdp = (origin) => `      v=0
      o=${origin} 1 1 IN IP[local_ip_type] [local_ip]
      s=-
      c=IN IP[media_ip_type] [media_ip]
      t=0 0
      m=audio [media_port] RTP/AVP 0 126
      a=rtpmap:0 PCMU/8000
      a=rtpmap:126 telephone-event/8000
      a=fmtp:126 0-15`;

/** The answer to a BYE. */
const OK_TO_BYE = `      SIP/2.0 200 OK
      [last_Via:]
      [last_From:]
      [last_To:]
      [last_Call-ID:]
      [last_CSeq:]
      Content-Length: 0`;

/** The answerer's replies to the INVITE: the Record-Route set echoed, so the caller's ACK and BYE come through Kamailio. */
const ANSWER_HEADERS = `      [last_Via:]
      [last_Record-Route:]
      [last_From:]
      [last_To:];tag=[pid]h[call_number]
      [last_Call-ID:]
      [last_CSeq:]
      Contact: <sip:[local_ip]:[local_port];transport=[transport]>`;

/** The answerer of outbound calls: 180, a short ring, 200 with PCMU; then waits for the BYE. */
export const ANSWERER_XML = `<?xml version="1.0" encoding="ISO-8859-1" ?>
<scenario name="harbor lab answerer">
  <recv request="INVITE" rrs="true"/>
  <send>
    <![CDATA[
      SIP/2.0 180 Ringing
${ANSWER_HEADERS}
      Content-Length: 0
    ]]>
  </send>
  <pause milliseconds="400"/>
  <send retrans="500">
    <![CDATA[
      SIP/2.0 200 OK
${ANSWER_HEADERS}
      Content-Type: application/sdp
      Content-Length: [len]

${sdp('harbor')}
    ]]>
  </send>
  <recv request="ACK" optional="true"/>
  <recv request="BYE"/>
  <send>
    <![CDATA[
${OK_TO_BYE}
    ]]>
  </send>
  <timewait milliseconds="2000"/>
</scenario>
`;

/** One inbound call from `from` to the dialed number `to`, hung up after holdMs unless the agent hangs up first. */
export function carrierXml({ from, holdMs }) {
  const who = `"${from}" <sip:${from}@[local_ip]:[local_port]>;tag=[pid]c[call_number]`;
  // In-dialog requests follow the route set Kamailio recorded ([routes]), or they would bypass it.
  const inDialog = (method, cseq) => `      ${method} [next_url] SIP/2.0
      [routes]
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
      From: ${who}
      To: <sip:[service]@[remote_ip]:[remote_port]>[peer_tag_param]
      Call-ID: [call_id]
      CSeq: ${cseq} ${method}
      Max-Forwards: 70
      Content-Length: 0`;
  return `<?xml version="1.0" encoding="ISO-8859-1" ?>
<scenario name="harbor lab carrier">
  <send retrans="500">
    <![CDATA[
      INVITE sip:[service]@[remote_ip]:[remote_port] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
      From: ${who}
      To: <sip:[service]@[remote_ip]:[remote_port]>
      Call-ID: [call_id]
      CSeq: 1 INVITE
      Contact: <sip:carrier@[local_ip]:[local_port]>
      Max-Forwards: 70
      Content-Type: application/sdp
      Content-Length: [len]

${sdp('carrier')}
    ]]>
  </send>
  <recv response="100" optional="true"/>
  <recv response="180" optional="true"/>
  <recv response="183" optional="true"/>
  <recv response="200" rrs="true"/>
  <send>
    <![CDATA[
${inDialog('ACK', 1)}
    ]]>
  </send>
  <recv request="BYE" timeout="${Math.round(holdMs)}" ontimeout="hangup"/>
  <send next="done">
    <![CDATA[
${OK_TO_BYE}
    ]]>
  </send>
  <label id="hangup"/>
  <send retrans="500">
    <![CDATA[
${inDialog('BYE', 2)}
    ]]>
  </send>
  <recv response="200"/>
  <label id="done"/>
</scenario>
`;
}
