package dev.agentcompute.codemode;

import java.util.Objects;

/** The body of one resource: text (JSON bodies are text) or bytes (an image). */
public sealed interface ResourceBody {

  /** A text body. */
  record Text(String text) implements ResourceBody {
    public Text {
      Objects.requireNonNull(text, "text");
    }
  }

  /** A binary body, sent base64-encoded. */
  record Blob(byte[] bytes) implements ResourceBody {
    public Blob {
      bytes = bytes.clone();
    }

    @Override
    public byte[] bytes() {
      return bytes.clone();
    }
  }

  static ResourceBody text(String text) {
    return new Text(text);
  }

  static ResourceBody blob(byte[] bytes) {
    return new Blob(bytes);
  }
}
