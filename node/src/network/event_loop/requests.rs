//! Inbound requests, from request-response or a served delivery stream: the block list, the
//! rate limit and catch-up grants, strikes for malformed frames, handing the request to the
//! service and sending its answer back; and what request-response reports about our own
//! outbound requests (answers and failures).

use std::io;

use futures::FutureExt;
use libp2p::PeerId;
use libp2p::request_response::{self, ResponseChannel};
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;
use tracing::{debug, warn};

use super::{EventLoop, PendingReply, PendingRequest, Waiter};
use crate::network::codec::{Exchange, WireRequest};
use crate::network::config::{MAX_STREAMS_PER_PEER, STREAM_IDLE};
use crate::network::limits::RateDecision;
use crate::network::{NetworkError, NetworkEvent, pipe};
use crate::protocol::{Request, Response};

/// Where an inbound request's answer goes: request-response's channel, or the task serving
/// a delivery stream (which waits for the service itself, with the same timeout).
enum Responder {
    Channel(ResponseChannel<Response>),
    Stream(oneshot::Sender<Response>),
}

impl EventLoop {
    pub(super) fn on_inbound_stream(&mut self, peer: PeerId, stream: libp2p::Stream) {
        if self.is_blocked(&peer) {
            return;
        }
        let open = self.served_streams.entry(peer).or_default();
        if *open >= MAX_STREAMS_PER_PEER {
            warn!(peer = %peer, "too many delivery streams: refusing another");
            self.strike(peer, "too many delivery streams");
            return;
        }
        *open += 1;
        debug!(peer = %peer, "delivery stream opened");
        tokio::spawn(pipe::serve(
            peer,
            stream,
            self.stream_msg_tx.clone(),
            self.request_timeout,
            STREAM_IDLE,
            self.traffic.clone(),
        ));
    }

    pub(super) fn on_stream_msg(&mut self, msg: pipe::StreamMsg) {
        match msg {
            pipe::StreamMsg::Request {
                peer,
                request,
                reply,
            } => {
                self.on_inbound_request(Exchange::Deliver, peer, request, Responder::Stream(reply))
            }
            pipe::StreamMsg::Closed { peer } => {
                if let Some(open) = self.served_streams.get_mut(&peer) {
                    *open = open.saturating_sub(1);
                    if *open == 0 {
                        self.served_streams.remove(&peer);
                    }
                }
            }
        }
    }

    pub(super) fn on_reply(&mut self, reply: PendingReply) {
        let PendingReply {
            exchange,
            peer,
            channel,
            response,
        } = reply;
        self.respond(exchange, peer, Responder::Channel(channel), response);
    }

    fn respond(
        &mut self,
        exchange: Exchange,
        peer: PeerId,
        responder: Responder,
        response: Response,
    ) {
        let channel = match responder {
            Responder::Channel(channel) => channel,
            Responder::Stream(reply) => {
                let _ = reply.send(response);
                return;
            }
        };
        let behaviour = self.swarm.behaviour_mut();
        let rr = match exchange {
            Exchange::Deliver => &mut behaviour.deliver,
            Exchange::Sync => &mut behaviour.sync,
        };
        if rr.send_response(channel, response).is_err() {
            debug!(peer = %peer, "response not sent: the request was closed or timed out");
        }
    }

    fn on_inbound_request(
        &mut self,
        exchange: Exchange,
        peer: PeerId,
        request: WireRequest,
        responder: Responder,
    ) {
        let request = match request {
            WireRequest::Valid(request) => request,
            WireRequest::Malformed(reason) => {
                warn!(peer = %peer, protocol = exchange.protocol(), %reason, "malformed request");
                self.strike(peer, &format!("malformed request: {reason}"));
                let response = Response::Refused {
                    reason: "malformed request".into(),
                };
                self.respond(exchange, peer, responder, response);
                return;
            }
        };
        // A granted catch-up sync is served once without counting (see `allow_syncs`).
        let granted = match &request {
            Request::Sync { game, .. } => self
                .sync_grants
                .get_mut(&peer)
                .is_some_and(|g| g.remove(game)),
            _ => false,
        };
        if granted {
            debug!(peer = %peer, "catch-up sync outside the rate limit");
        } else if let RateDecision::Refuse { first } = self.rate.check(
            peer,
            self.swarm.behaviour().ip_limits.is_reserved(&peer) || self.rate_raised.contains(&peer),
            Instant::now(),
        ) {
            if first {
                warn!(peer = %peer, "inbound request rate limit exceeded");
                // One strike per window: a burst from a peer catching up costs one strike, a
                // peer that floods minute after minute ends up blocked.
                self.strike(peer, "request rate limit exceeded");
            } else {
                debug!(peer = %peer, "inbound request refused: rate limit");
            }
            let response = Response::Refused {
                reason: "rate limit".into(),
            };
            self.respond(exchange, peer, responder, response);
            return;
        }

        self.note_activity(peer);
        // The service answers on `reply`. A stream's task waits for that itself (with the
        // same timeout); request-response's answer is awaited here, never inline.
        let reply = match responder {
            Responder::Stream(reply) => reply,
            Responder::Channel(channel) => {
                let (tx, rx) = oneshot::channel();
                let timeout = self.request_timeout;
                self.pending_replies.push(
                    async move {
                        PendingReply {
                            exchange,
                            peer,
                            channel,
                            response: pipe::answer(rx, timeout).await,
                        }
                    }
                    .boxed(),
                );
                tx
            }
        };
        let size = match &request {
            Request::Deliver { events, .. } => events.iter().map(Vec::len).sum(),
            Request::League { docs } => docs.iter().map(Vec::len).sum(),
            Request::Profiles { profiles } => profiles.iter().map(Vec::len).sum(),
            _ => 0,
        } + 256;
        let Some(queued) = super::super::queue::QueueTicket::take(&self.queued_bytes, size) else {
            warn!(peer = %peer, size, "event queue holds too many bytes: refusing inbound request");
            let _ = reply.send(Response::Refused {
                reason: "busy".into(),
            });
            return;
        };
        let event = NetworkEvent::InboundRequest {
            peer,
            request,
            reply,
            queued,
        };
        let (reason, event) = match self.events.try_send(event) {
            Ok(()) => return,
            Err(mpsc::error::TrySendError::Full(event)) => {
                warn!(peer = %peer, "event queue full: refusing inbound request");
                ("busy", event)
            }
            Err(mpsc::error::TrySendError::Closed(event)) => ("shutting down", event),
        };
        if let NetworkEvent::InboundRequest { reply, .. } = event {
            let _ = reply.send(Response::Refused {
                reason: reason.into(),
            });
        }
    }

    pub(super) fn on_request_response(
        &mut self,
        exchange: Exchange,
        event: request_response::Event<WireRequest, Response>,
    ) {
        use request_response::{Event, Message, OutboundFailure};
        match event {
            Event::Message {
                peer,
                message:
                    Message::Request {
                        request, channel, ..
                    },
                ..
            } => self.on_inbound_request(exchange, peer, request, Responder::Channel(channel)),
            Event::Message {
                peer,
                message:
                    Message::Response {
                        request_id,
                        response,
                    },
                ..
            } => {
                self.note_activity(peer);
                let Some(PendingRequest { reply, .. }) =
                    self.pending_requests.remove(&(exchange, request_id))
                else {
                    return;
                };
                let result = match response {
                    Response::Refused { reason } => {
                        debug!(peer = %peer, %reason, "request refused");
                        Err(NetworkError::Refused(reason))
                    }
                    response => Ok(response),
                };
                let _ = reply.send(result);
            }
            Event::OutboundFailure {
                peer,
                request_id,
                error,
                ..
            } => {
                debug!(peer = %peer, protocol = exchange.protocol(), error = %error, "request failed");
                let Some(PendingRequest { reply, retry }) =
                    self.pending_requests.remove(&(exchange, request_id))
                else {
                    return;
                };
                if let (OutboundFailure::DialFailure, Some(request)) = (&error, retry) {
                    // Every address we knew failed: the peer may have moved (a new port, a
                    // new network). Its contact record says where it is now; one more try.
                    debug!(peer = %peer, "dial failed: looking the peer up in the DHT");
                    self.start_lookup(peer, Waiter::Request { request, reply });
                    return;
                }
                let error = match error {
                    OutboundFailure::Timeout => NetworkError::Timeout,
                    OutboundFailure::DialFailure => {
                        NetworkError::Dial(format!("cannot reach {peer}"))
                    }
                    OutboundFailure::ConnectionClosed => {
                        NetworkError::Transport(format!("connection to {peer} closed"))
                    }
                    OutboundFailure::UnsupportedProtocols => NetworkError::Refused(format!(
                        "{peer} does not speak {}",
                        exchange.protocol()
                    )),
                    OutboundFailure::Io(e) => {
                        if e.kind() == io::ErrorKind::InvalidData {
                            warn!(peer = %peer, error = %e, "malformed response");
                        }
                        NetworkError::Codec(e.to_string())
                    }
                };
                let _ = reply.send(Err(error));
            }
            Event::InboundFailure { peer, error, .. } => {
                debug!(peer = %peer, protocol = exchange.protocol(), error = %error,
                    "inbound request failed");
            }
            Event::ResponseSent { .. } => {}
        }
    }
}
