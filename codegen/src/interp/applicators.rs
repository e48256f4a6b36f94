//! The in-place applicators that choose among subschemas: `anyOf`, `oneOf` (read through
//! a discriminator where the plan has one), `not` and `if` / `then` / `else`, each in its
//! collecting and short-circuit forms side by side.

use super::annotations::Annotations;
use super::context::{Ctx, Inst};
use super::plan::BranchesOp;
use super::Interpreter;
use crate::ir::{Edge, Node, NodeId};
use crate::plan::Discriminator;
use schemac_runtime::__private::Res;
use schemac_runtime::error::ErrorKind;
use schemac_runtime::instance::Instance;
use schemac_runtime::json::Tag;

#[cfg(doc)]
use super::plan::Op;

/// The branches of an `anyOf` / `oneOf` (edges, or targets as [`Op`]s hold them), and
/// its discriminator's reading of the instance.
#[derive(Clone, Copy)]
pub(super) struct Branches<'p, 't, T> {
    branches: &'p [T],
    discriminator: Option<&'p Discriminator>,
    tag: Tag<'t>,
}

impl<'p, 't, T> Branches<'p, 't, T> {
    pub(super) fn new<I: Instance<'t>>(
        branches: &'p [T],
        discriminator: Option<&'p Discriminator>,
        inst: Inst<'_, I>,
    ) -> Branches<'p, 't, T> {
        let tag = match (discriminator, inst) {
            (Some(d), Inst::Value(value)) => Tag::of(value, &d.property),
            _ => Tag::NotObject,
        };
        Branches {
            branches,
            discriminator,
            tag,
        }
    }

    /// The branches that may be valid (every other one is invalid for certain), in order.
    pub(super) fn admitted(self) -> impl Iterator<Item = &'p T> + use<'p, 't, T> {
        self.branches
            .iter()
            .enumerate()
            .filter_map(move |(i, branch)| {
                self.discriminator
                    .is_none_or(|d| d.branches[i].admits(self.tag))
                    .then_some(branch)
            })
    }
}

impl Interpreter {
    #[inline(never)]
    pub(super) fn any_of<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        node: &Node,
        keyword: &str,
        branches: Branches<'_, '_, Edge>,
        inst: Inst<'_, I>,
        mut ann: Option<&mut Annotations>,
    ) -> Res {
        // A collecting or annotating node evaluates every branch: all valid ones contribute
        // annotations.
        let every = ann.is_some() || cx.annotate;
        let mut ok = false;
        for edge in branches.admitted() {
            if self.apply_silently(cx, edge, inst, ann.as_deref_mut())? {
                ok = true;
                if !every {
                    break;
                }
            }
        }
        if !ok && cx.report {
            cx.error(node, keyword, ErrorKind::AnyOf);
        }
        Ok(ok)
    }

    /// [`Op::AnyOf`]: the admitted branches in order, up to the first valid one.
    #[inline(never)]
    pub(super) fn any_of_quietly<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        op: &BranchesOp,
        inst: Inst<'_, I>,
    ) -> Res {
        let branches = Branches::new(&op.targets, op.discriminator.as_ref(), inst);
        for &target in branches.admitted() {
            if self.node(cx, target, inst, None)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    #[inline(never)]
    pub(super) fn one_of<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        node: &Node,
        keyword: &str,
        branches: Branches<'_, '_, Edge>,
        inst: Inst<'_, I>,
        mut ann: Option<&mut Annotations>,
    ) -> Res {
        // Reporting counts every match (the error says how many, and a collecting node's
        // later `unevaluated*` errors depend on every valid branch); in short-circuit mode
        // a second match decides: the node fails, its annotations are dropped.
        let every = cx.report;
        let mut matched = 0u64;
        for edge in branches.admitted() {
            if self.apply_silently(cx, edge, inst, ann.as_deref_mut())? {
                matched += 1;
                if matched > 1 && !every {
                    break;
                }
            }
        }
        let ok = matched == 1;
        if !ok && cx.report {
            cx.error(node, keyword, ErrorKind::OneOf { matched });
        }
        Ok(ok)
    }

    /// [`Op::OneOf`]: the admitted branches in order, up to the second valid one.
    #[inline(never)]
    pub(super) fn one_of_quietly<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        op: &BranchesOp,
        inst: Inst<'_, I>,
    ) -> Res {
        let branches = Branches::new(&op.targets, op.discriminator.as_ref(), inst);
        let mut matched = false;
        for &target in branches.admitted() {
            if self.node(cx, target, inst, None)? {
                if matched {
                    return Ok(false);
                }
                matched = true;
            }
        }
        Ok(matched)
    }

    /// [`Op::Not`].
    #[inline(never)]
    pub(super) fn not_quietly<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        target: NodeId,
        inst: Inst<'_, I>,
    ) -> Res {
        Ok(!self.node(cx, target, inst, None)?)
    }

    /// `if` / `then` / `else`: the condition with errors dropped, then the branch it
    /// chooses.
    #[inline(always)]
    pub(super) fn if_then_else<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        (condition, then, otherwise): (&Edge, &Option<Edge>, &Option<Edge>),
        inst: Inst<'_, I>,
        mut ann: Option<&mut Annotations>,
    ) -> Res {
        let holds = self.apply_silently(cx, condition, inst, ann.as_deref_mut())?;
        match if holds { then } else { otherwise } {
            Some(edge) => self.apply(cx, &edge.path, edge.target, inst, ann),
            None => Ok(true),
        }
    }

    /// [`Op::If`]: the condition, then `then` where it holds and `otherwise` where it
    /// does not.
    #[inline(never)]
    pub(super) fn if_quietly<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        condition: NodeId,
        then: Option<NodeId>,
        otherwise: Option<NodeId>,
        inst: Inst<'_, I>,
    ) -> Res {
        let holds = self.node(cx, condition, inst, None)?;
        match if holds { then } else { otherwise } {
            Some(target) => self.node(cx, target, inst, None),
            None => Ok(true),
        }
    }
}
