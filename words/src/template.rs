//! A catalogue's messages as templates, for a page that fills in the arguments itself.
//!
//! The board page (`sobre board`) is drawn in the browser, where the arguments of its
//! messages are known (a time left, a player's name); Fluent runs on the node. So the node
//! hands the page each message it needs as a list of [`Piece`]s, text and argument names,
//! and the page joins them. Only simple messages can travel so: a selector or a reference
//! to another message needs Fluent itself, and is a [`TemplateError`].

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};

/// A part of a message: text as written, or the place of an argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    Text(String),
    /// The argument's name (`{ $name }` → `name`).
    Arg(String),
}

/// A message that is not a plain template.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the message {key} is not text and {{ $arguments }} only, so a page cannot fill it")]
pub struct TemplateError {
    pub key: String,
}

/// The messages of `source` whose keys start with `prefix`, in the catalogue's order, each
/// as its pieces. A message without a value (attributes only) is left out.
///
/// # Errors
/// [`TemplateError`] naming the first message that uses more of Fluent than text and
/// arguments.
pub fn templates(source: &str, prefix: &str) -> Result<Vec<(String, Vec<Piece>)>, TemplateError> {
    // The catalogues are embedded and a test parses them whole; a part that did not parse
    // is left out here as the bundle leaves it out.
    let resource = fluent_syntax::parser::parse(source).unwrap_or_else(|(r, _)| r);
    let mut out = Vec::new();
    for entry in &resource.body {
        let Entry::Message(m) = entry else { continue };
        let key = m.id.name;
        let Some(value) = m.value.as_ref().filter(|_| key.starts_with(prefix)) else {
            continue;
        };
        let pieces = pieces(value).ok_or_else(|| TemplateError {
            key: key.to_owned(),
        })?;
        out.push((key.to_owned(), pieces));
    }
    Ok(out)
}

/// A pattern's pieces, adjacent text joined; `None` if it is more than text and arguments.
fn pieces(pattern: &Pattern<&str>) -> Option<Vec<Piece>> {
    let mut out: Vec<Piece> = Vec::new();
    let text = |out: &mut Vec<Piece>, t: &str| match out.last_mut() {
        Some(Piece::Text(last)) => last.push_str(t),
        _ => out.push(Piece::Text(t.to_owned())),
    };
    for element in &pattern.elements {
        match element {
            PatternElement::TextElement { value } => text(&mut out, value),
            PatternElement::Placeable { expression } => match expression {
                Expression::Inline(InlineExpression::VariableReference { id }) => {
                    out.push(Piece::Arg(id.name.to_owned()));
                }
                // `{ "{" }`: how Fluent writes a brace or a blank at an edge.
                Expression::Inline(InlineExpression::StringLiteral { value }) => {
                    text(&mut out, value);
                }
                _ => return None,
            },
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_arguments_become_pieces_in_order() {
        let source = "a-x = Hello\nb-y = { $name }'s node, { $n } games\nc-z = other\n";
        let got = templates(source, "b-").unwrap();
        assert_eq!(
            got,
            [(
                "b-y".to_owned(),
                vec![
                    Piece::Arg("name".into()),
                    Piece::Text("'s node, ".into()),
                    Piece::Arg("n".into()),
                    Piece::Text(" games".into()),
                ]
            )]
        );
        assert_eq!(templates(source, "").unwrap().len(), 3);
    }

    #[test]
    fn a_selector_is_not_a_template_and_is_named() {
        let source =
            "p-ok = fine\np-plural = { $n ->\n    [one] one game\n   *[other] { $n } games\n}\n";
        assert_eq!(
            templates(source, "p-"),
            Err(TemplateError {
                key: "p-plural".into()
            })
        );
    }
}
