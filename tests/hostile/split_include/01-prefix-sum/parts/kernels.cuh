/* hostile: split_include: the header shared by the submission's files. */
#pragma once
