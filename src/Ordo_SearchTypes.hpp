// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_SEARCHTYPES_HPP
#define ORDO_SEARCHTYPES_HPP

// The vocabulary of sorted search (Ordo_SortedSearch.hpp): which bound, the complete search's
// outputs and its match counts; the kinds of join (Ordo_Join.hpp).

#include <cstdint>

namespace Ordo {

/// Which bound a search returns for the needles of A: the first element of B that does not order
/// before the needle (lower), or the first that orders after it (upper).
enum class Bounds { lower, upper };

/// Outputs of the complete search. Each is optional: a View of extent 0 (a default-constructed
/// one) is not written. Index Views hold integers; match Views hold bool or uint8_t (1: the other
/// sequence holds an equal element).
template <class AIndex, class AMatch, class BIndex, class BMatch>
struct SearchOutputs {
  AIndex a_index;  ///< a_index(i): the bound in B of the needle a(i)
  AMatch a_match;  ///< a_match(i): whether B holds an element equal to a(i)
  BIndex b_index;  ///< b_index(j): the bound in A of b(j)
  BMatch b_match;  ///< b_match(j): whether A holds an element equal to b(j)
};
/// Deduces SearchOutputs' View types from its four Views.
template <class AIndex, class AMatch, class BIndex, class BMatch>
SearchOutputs(AIndex, AMatch, BIndex, BMatch) -> SearchOutputs<AIndex, AMatch, BIndex, BMatch>;

/// How many elements of A have an equal element in B (a), and of B in A (b).
struct MatchCounts {
  std::int64_t a = 0;  ///< elements of A with an equal element in B
  std::int64_t b = 0;  ///< elements of B with an equal element in A
};

/// The kinds of join of sorted keys (Ordo_Join.hpp): pairs of equal keys only (inner), and every
/// a (left), every b (right) or both (full) even without a partner.
enum class JoinKind { inner, left, right, full };

}  // namespace Ordo

#endif
