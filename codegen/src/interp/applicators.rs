//! The in-place applicators that choose among subschemas: `anyOf`, `oneOf` (read through
//! a discriminator where the plan has one), `not` and `if` / `then` / `else`, each in its
//! collecting and short-circuit forms side by side.

use super::annotations::Annotations;
use super::context::{Ctx, Inst};
use super::index::Tags;
use super::plan::BranchesOp;
use super::Interpreter;
use crate::ir::{Edge, Node, NodeId};
use crate::plan::explain;
use schemac_runtime::engine::{closest_candidates, Res, Stop, Trail};
use schemac_runtime::error::{ErrorKind, Matched, TypeMismatch};
use schemac_runtime::instance::Instance;
use schemac_runtime::json::Tag;

#[cfg(doc)]
use super::plan::Op;

/// The branches of an `anyOf` / `oneOf` (edges, or targets as [`Op`]s hold them), and
/// the instance its discriminator reads, once, when it first decides a branch.
pub(super) struct Branches<'p, 'k, T, I> {
    branches: &'p [T],
    discriminator: Option<&'p Tags>,
    inst: Inst<'k, I>,
}

// Copied whatever `T` is: it holds only references (and an instance, itself one).
impl<T, I: Copy> Clone for Branches<'_, '_, T, I> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, I: Copy> Copy for Branches<'_, '_, T, I> {}

impl<'p, 'k, 't, T, I: Instance<'t>> Branches<'p, 'k, T, I> {
    pub(super) fn new(
        branches: &'p [T],
        discriminator: Option<&'p Tags>,
        inst: Inst<'k, I>,
    ) -> Branches<'p, 'k, T, I> {
        Branches {
            branches,
            discriminator,
            inst,
        }
    }

    /// Whether the discriminator admits each branch, in order (every branch without
    /// one). The instance's tag is looked up only when a branch that not every tag
    /// admits is reached (as generated code does), and the branches it admits found
    /// then, at once where the discriminator can ([`Tags::admitted`]).
    fn admissions(self) -> impl Iterator<Item = bool> + Clone + use<'p, 'k, 't, T, I> {
        let mut read = None;
        (0..self.branches.len()).map(move |i| {
            self.discriminator.is_none_or(|d| {
                let admits = &d.of.branches[i];
                if admits.admits_all() {
                    return true;
                }
                let (tag, mask) = *read.get_or_insert_with(|| {
                    let tag = tag_of(&d.of, self.inst);
                    (tag, d.admitted(tag))
                });
                mask.map_or_else(|| admits.admits(tag), |mask| mask >> i & 1 == 1)
            })
        })
    }

    /// The branches that may be valid (every other one is invalid for certain), in order,
    /// with their indices.
    pub(super) fn indexed(self) -> impl Iterator<Item = (usize, &'p T)> + use<'p, 'k, 't, T, I> {
        self.branches
            .iter()
            .enumerate()
            .zip(self.admissions())
            .filter_map(|(branch, admitted)| admitted.then_some(branch))
    }

    /// The branches that may be valid, in order ([`Branches::indexed`]).
    pub(super) fn admitted(self) -> impl Iterator<Item = &'p T> + use<'p, 'k, 't, T, I> {
        self.indexed().map(|(_, branch)| branch)
    }
}

/// The instance's tag under discriminator `d`.
fn tag_of<'t, I: Instance<'t>>(d: &crate::plan::Discriminator, inst: Inst<'_, I>) -> Tag<'t> {
    match inst {
        Inst::Value(value) => Tag::of(value, &d.property),
        _ => Tag::NotObject,
    }
}

impl Interpreter {
    #[inline(never)]
    pub(super) fn any_of<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        node: &Node,
        keyword: &str,
        branches: Branches<'_, '_, Edge, I>,
        inst: Inst<'_, I>,
        mut ann: Option<&mut Annotations>,
    ) -> Res {
        // A collecting or annotating node evaluates every branch: all valid ones contribute
        // annotations.
        let every = ann.is_some() || cx.annotate;
        let mut ok = false;
        for edge in branches.admitted() {
            if self.ruled_out(cx, edge.target, inst) {
                continue;
            }
            if self.apply_silently(cx, edge, inst, ann.as_deref_mut())? {
                ok = true;
                if !every {
                    break;
                }
            }
        }
        if !ok && cx.report {
            self.none_matched(cx, (node, keyword), branches, inst, |types| {
                ErrorKind::AnyOf { types }
            })?;
        }
        Ok(ok)
    }

    /// Whether an `anyOf` / `oneOf` branch applying `target` is left out on `inst`: in
    /// short-circuit evaluation (not while reporting, nor under a dynamic scope) when the
    /// instance's kind rules it out ([`crate::plan::Plan::ruled_out`]), as generated code's
    /// short-circuit functions guard it.
    fn ruled_out<'a, I: Instance<'a>>(&self, cx: &Ctx, target: NodeId, inst: Inst<'_, I>) -> bool {
        !cx.report
            && !self.shared.program.uses_dynamic_scope
            && self.shared.ruled_out(target, inst.kind())
    }

    /// Reports the error of an `anyOf` / `oneOf` (`node`'s check `keyword`) that none of
    /// `branches` matched — `kind` given whether no branch allows the instance's type —
    /// and explains it by the errors of its closest branch, one level deeper
    /// ([`crate::plan::explain`]). Only while reporting.
    #[cold]
    #[inline(never)]
    fn none_matched<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        (node, keyword): (&Node, &str),
        branches: Branches<'_, '_, Edge, I>,
        inst: Inst<'_, I>,
        kind: impl FnOnce(Option<TypeMismatch>) -> ErrorKind,
    ) -> Result<(), Stop> {
        let types = explain::branch_types(&self.shared.program, branches.branches);
        cx.error(node, keyword, kind(inst.mismatch(explain::allowed(&types))));
        if !cx.trail.as_deref().is_some_and(Trail::explains) {
            return Ok(());
        }
        let typed = types.iter().map(|t| inst.mismatch(*t).is_none());
        let candidates = closest_candidates(branches.admissions().zip(typed));
        let Some(trail) = cx.trail.as_deref_mut() else {
            return Ok(());
        };
        let mut explanation = trail.begin_explanation();
        let mut result = Ok(());
        for i in candidates {
            if let Some(trail) = cx.trail.as_deref_mut() {
                trail.begin_branch(&mut explanation);
            }
            let edge = &branches.branches[i];
            if let Err(stop) = self.apply(cx, &edge.path, edge.target, inst, None) {
                result = Err(stop);
                break;
            }
            if let Some(trail) = cx.trail.as_deref_mut() {
                trail.end_branch(&mut explanation);
            }
        }
        if let Some(trail) = cx.trail.as_deref_mut() {
            trail.end_explanation(explanation);
        }
        result
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
        branches: Branches<'_, '_, Edge, I>,
        inst: Inst<'_, I>,
        mut ann: Option<&mut Annotations>,
    ) -> Res {
        // Reporting counts every match (the error says how many, and a collecting node's
        // later `unevaluated*` errors depend on every valid branch); in short-circuit mode
        // a second match decides: the node fails, its annotations are dropped.
        let every = cx.report;
        let mut matched = Matched::default();
        for (i, edge) in branches.indexed() {
            if self.ruled_out(cx, edge.target, inst) {
                continue;
            }
            if self.apply_silently(cx, edge, inst, ann.as_deref_mut())? {
                matched.add(i as u32);
                if matched.count() > 1 && !every {
                    break;
                }
            }
        }
        let ok = matched.count() == 1;
        if !ok && cx.report {
            if matched.count() == 0 {
                self.none_matched(cx, (node, keyword), branches, inst, |types| {
                    ErrorKind::OneOf { matched, types }
                })?;
            } else {
                let types = None;
                cx.error(node, keyword, ErrorKind::OneOf { matched, types });
            }
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
