package io.basalt.gateway.rest;

/** A request the gateway refuses, with the HTTP status HBase's REST server answers for it. */
final class RestException extends RuntimeException {
  final int status;

  RestException(int status, String message) {
    super(message);
    this.status = status;
  }

  static RestException badRequest(String message) {
    return new RestException(400, message);
  }

  static RestException notFound(String message) {
    return new RestException(404, message);
  }

  static RestException unsupportedMedia(String contentType) {
    return new RestException(415, "unsupported Content-Type: " + contentType);
  }

  static RestException notAcceptable(String message) {
    return new RestException(406, message);
  }
}
